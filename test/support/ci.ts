/**
 * Whether this run is CI's, where a test that needs a component the machine lacks (Chromium, redis-server) must
 * fail rather than skip. Any value of `CI` but `false` and `0` counts, as with CI services that set `CI=1`.
 */
export const underCi = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
