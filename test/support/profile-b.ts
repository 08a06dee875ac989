// Jest project "profile B": every simulator a test starts without naming a profile makes the alternate
// choices for the contract's gaps (test/simulator/profile.ts), so the same suites prove the nodes and the
// simulator hold under both readings.
process.env.DECKGEN_SIM_PROFILE = 'alternate';
