// Jest project "profile C": the readings of issue 16 (test/simulator/profile.ts, `readings`): profile B plus
// the upload record in the JSON:API shape, 402 options as plain cta strings, HAL-style `links` and an
// app-page `deckUrl` in the status, and files sent without Content-Length.
process.env.DECKGEN_SIM_PROFILE = 'readings';
