/**
 * The team's data on PostgreSQL: an app and a user added through one server's control API sign in at another
 * server on the same schema (two processes of a fleet, played by two servers), and removing the app through the
 * second revokes at the first at its next request.
 */
import { describe, expect, it } from 'vitest';
import { POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import type { StorefrontServer } from '../../src/create-server.js';
import { connectSandbox } from '../../src/sandbox/client.js';
import { tokenRequest } from '../helpers/test-server.js';
import { useTwoServers } from './two-servers.js';

const skip = skipWithout(POSTGRES, 'Team data on PostgreSQL');
const TOKEN = 'control-token-0123456789';

describe('team data on PostgreSQL', () => {
  if (skip) {
    it.skip('needs PostgreSQL');
    return;
  }
  const { servers } = useTwoServers({ control: { token: TOKEN } });

  it('an app and a user added through one process sign in at the other; removal revokes everywhere', async () => {
    const [a, b] = servers as [StorefrontServer, StorefrontServer];
    const controlA = connectSandbox(a.control!);
    const controlB = connectSandbox(b.control!);
    await controlA.users.add({ login: 'pg-dev', password: 'pg-dev-password', shops: ['juniper-fig'] });
    const app = await controlA.apps.add({ name: 'PG dev app', owner: 'pg-dev' });
    expect((await controlB.apps.list()).map((x) => x.client_id)).toContain(app.client_id);

    const client = { clientId: app.client_id, clientSecret: app.client_secret };
    const granted = await tokenRequest(
      b.origin,
      { grant_type: 'password', username: 'pg-dev', password: 'pg-dev-password', scope: 'admin' },
      client,
    );
    expect(granted.status).toBe(200);
    const { access_token: token } = (await granted.json()) as { access_token: string };
    const root = (url: string) => fetch(`${url}/v1/`, { headers: { authorization: `Bearer ${token}` } });
    expect((await root(a.origin)).status).toBe(200);

    const product = await controlB.products.add({ shop: 'juniper-fig', title: 'Shared Lantern' });
    expect((await controlA.products.list({ shop: 'juniper-fig' })).map((p) => p.id)).toContain(product.id);

    await controlB.apps.remove(app.id);
    expect((await root(a.origin)).status).toBe(401);
    expect((await tokenRequest(a.origin, { grant_type: 'client_credentials' }, client)).status).toBe(401);
    // A login taken through one process is taken for the other.
    await expect(controlB.users.add({ login: 'pg-dev', password: 'another password' })).rejects.toMatchObject({
      status: 409,
    });
  });
});
