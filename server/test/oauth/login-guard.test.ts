/**
 * The login guard on its own, with the addresses the shells hand it: per-login counts across addresses,
 * per-client counts by address (IPv6 by /64), and how long each is remembered.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/support/manual-clock.js';
import { addressKey, NO_ADDRESS } from '../../src/oauth/client-address.js';
import { createLoginGuard, type LoginAttempt } from '../../src/oauth/login-guard.js';
import { hashPassword } from '../../src/oauth/secrets.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { AppRow } from '../../src/store/types.js';

const app = (id: string): AppRow => ({
  id,
  name: `App ${id}`,
  client_id: `client-${id}`,
  client_secret: 'secret',
  redirect_uris: [],
  owner_id: 'u1',
});

const users = [
  { id: 'u1', login: 'ann', name: 'Ann', password_hash: hashPassword('right'), role: 'merchant' as const },
];

function guard() {
  const clock = manualClock(Date.UTC(2026, 0, 1));
  const logins = createLoginGuard({ store: createMemoryStore({ users, apps: [app('a'), app('b')] }), clock });
  const check = (attempt: Partial<LoginAttempt>) =>
    logins.check({ app: app('a'), login: 'ann', password: 'wrong', address: '192.0.2.1', ...attempt });
  return { clock, check };
}

describe('per login', () => {
  it('throttles a login guessed from many addresses', async () => {
    const { check } = guard();
    for (let i = 0; i < 5; i++) expect(await check({ address: `198.51.100.${i}` })).toEqual({ status: 'refused' });
    expect(await check({ password: 'right', address: '203.0.113.9' })).toEqual({ status: 'throttled', retryAfter: 1 });
  });

  it('forgets a login’s failures after a day without one', async () => {
    const { check, clock } = guard();
    for (let i = 0; i < 10; i++) {
      await check({});
      clock.advance(15 * 60_000);
    }
    expect((await check({})).status).toBe('refused');
    clock.advance(24 * 3_600_000 + 1);
    for (let i = 0; i < 4; i++) expect((await check({})).status).toBe('refused');
    // The next failure is the fifth since the day of quiet: a one-second wait, not the cap.
    expect(await check({})).toEqual({ status: 'refused' });
    expect(await check({})).toEqual({ status: 'throttled', retryAfter: 1 });
  });
});

describe('a clock moved back (a sandbox set back after a move ahead)', () => {
  it('forgets failures counted in the clock’s future, and never waits past the cap', async () => {
    const { check, clock } = guard();
    clock.advance(365 * 86_400_000);
    for (let i = 0; i < 12; i++) await check({});
    expect((await check({ password: 'right' })).status).toBe('throttled');
    // A year back: failures a year ahead say nothing of guessing now, and would lock the user out till then.
    clock.advance(-365 * 86_400_000);
    expect((await check({ password: 'right' })).status).toBe('accepted');

    // Enough failures for the cap (15 min), each after the wait the last one called for.
    for (let failures = 0; failures < 16; ) {
      const outcome = await check({});
      if (outcome.status === 'throttled') clock.advance(outcome.retryAfter * 1000);
      else failures++;
    }
    // Ten minutes back, within the cap: the failures still count, and the wait is the cap, not 25 minutes.
    clock.advance(-10 * 60_000);
    expect(await check({ password: 'right' })).toEqual({ status: 'throttled', retryAfter: 15 * 60 });
    // Waited out as told, the right password is in.
    clock.advance(15 * 60_000);
    expect((await check({ password: 'right' })).status).toBe('accepted');
  });
});

describe('per client and address', () => {
  it('counts each address apart, an IPv6 host by its /64, an IPv4-mapped address as IPv4', async () => {
    const { check } = guard();
    const spray = async (address: string, n: number) => {
      for (let i = 0; i < n; i++) expect((await check({ login: `user${i}`, address })).status).toBe('refused');
    };
    await spray('2001:db8:0:1::1', 10);
    await spray('2001:db8:0:1:ffff:1:2:3', 10);
    expect((await check({ login: 'another', address: '2001:db8:0:1::77' })).status).toBe('throttled');
    expect((await check({ login: 'another', address: '2001:db8:0:2::1' })).status).toBe('refused');

    await spray('192.0.2.7', 20);
    expect((await check({ login: 'another', address: '::ffff:192.0.2.7' })).status).toBe('throttled');
    expect((await check({ login: 'another', address: '192.0.2.8' })).status).toBe('refused');
    // The same address through another app is counted apart.
    expect((await check({ login: 'another', app: app('b'), address: '192.0.2.7' })).status).toBe('refused');
  });

  it('is not cleared by a success, and forgets after an hour without failures', async () => {
    const { check, clock } = guard();
    for (let i = 0; i < 19; i++) await check({ login: `user${i}` });
    expect((await check({ password: 'right' })).status).toBe('accepted');
    expect((await check({ login: 'user19' })).status).toBe('refused');
    expect(await check({ password: 'right' })).toEqual({ status: 'throttled', retryAfter: 1 });
    clock.advance(3_600_000 + 1);
    expect((await check({ password: 'right' })).status).toBe('accepted');
  });
});

describe('addressKey', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:0DB8:0000:0001:0000:0000:0000:0001', '2001:db8:0:1::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['not an address', 'not an address'],
    ['1::2::3', '1::2::3'],
    [undefined, NO_ADDRESS],
    ['', NO_ADDRESS],
  ])('%j → %j', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});
