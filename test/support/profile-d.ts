// Jest project "profile D": the readings of issue 26 (test/simulator/profile.ts, `contrary`): profile B where the
// word alone misleads: a running deck says `done` with nothing to hand over, a finished one `processed` (on no
// list) with its files, a failed one `completed` with its reason under `failureReason`; 402 options carry their
// links HAL-style.
process.env.DECKGEN_SIM_PROFILE = 'contrary';
