import { describe, expect, it } from 'vitest';
import { randomSecret, typedSecret } from '../../src/oauth/secrets.js';

describe('secrets people type on a command line', () => {
  it('never begin with a dash, which a command line would read as an option', () => {
    const draws = Array.from({ length: 2000 }, () => typedSecret(32));
    expect(draws.filter((secret) => secret.startsWith('-'))).toEqual([]);
    expect(draws.every((secret) => /^[A-Za-z0-9_][A-Za-z0-9_-]{42}$/.test(secret))).toBe(true);
    // Plain random secrets do, about one in 64: the test above would see some.
    expect(Array.from({ length: 2000 }, () => randomSecret(32)).some((secret) => secret.startsWith('-'))).toBe(true);
  });
});
