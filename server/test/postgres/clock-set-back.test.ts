/**
 * A sandbox clock set back on a fleet (two servers on one PostgreSQL schema): what the fleet counted in the clock's
 * future (rate-limit windows, failed logins) is dropped, so that callers are not refused until the clock gets
 * there again, whichever server they reach.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import type { StorefrontServer } from '../../src/create-server.js';
import { connectSandbox, type SandboxClient } from '../../src/sandbox/client.js';
import { clientToken, tokenRequest } from '../helpers/test-server.js';
import { useTwoServers } from './two-servers.js';

describe.skipIf(skipWithout(POSTGRES, 'A clock set back on a PostgreSQL fleet'))('a clock set back on a fleet', () => {
  const { servers } = useTwoServers({
    ...{ products: 2, control: { token: 'clock-back-token-0123' } },
    // Tokens outlive the moves; a quota the test meets.
    ...{ rateLimit: '5/60s', tokenTtl: 30 * 86_400, demo: { password: 'the-right-password' } },
  });
  let control: SandboxClient;
  beforeAll(() => {
    control = connectSandbox(servers[0]!.control!);
  });

  it('counts the rate limit afresh on every server once the clock is back before a window it counted', async () => {
    const [a, b] = servers as [StorefrontServer, StorefrontServer];
    const token = await clientToken(a);
    const read = (server: StorefrontServer) =>
      fetch(`${server.baseUrl}/`, { headers: { authorization: `Bearer ${token}` } });
    await control.clock.advance(600_000);
    for (let i = 0; i < 6; i++) await (await read(i % 2 ? a : b)).arrayBuffer();
    expect((await read(b)).status).toBe(429);
    await control.clock.advance(-600_000);
    const back = await read(b);
    expect(back.status).toBe(200);
    expect(back.headers.get('ratelimit')).toMatch(/^"app-user";r=4;t=\d+$/);
  });

  it('forgets failed logins stamped in the clock’s future: the right password is in again', async () => {
    const [a, b] = servers as [StorefrontServer, StorefrontServer];
    const login = (server: StorefrontServer, password: string) =>
      tokenRequest(
        server.origin,
        { grant_type: 'password', username: 'demo', password, scope: 'admin' },
        server.credentials,
      );
    await control.clock.advance(365 * 86_400_000);
    for (let i = 0; i < 6; i++) await (await login(i % 2 ? a : b, 'wrong')).arrayBuffer();
    expect((await login(b, 'the-right-password')).status).toBe(429);
    await control.clock.advance(-365 * 86_400_000);
    expect((await login(b, 'the-right-password')).status).toBe(200);
  });
});
