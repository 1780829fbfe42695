/**
 * The control API's token, event and webhook twins on PostgreSQL, through two servers on one schema (the two
 * workers of a fleet): a token issued through one is expired through the other, and the webhook attempts of an
 * event triggered through one are listed through the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import type { StorefrontServer } from '../../src/create-server.js';
import { connectSandbox, type SandboxClient } from '../../src/index.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';
import { useTwoServers } from './two-servers.js';

const skip = skipWithout(POSTGRES, 'The control twins on PostgreSQL');
const TOKEN = 'control-token-0123456789';

describe('the token, event and webhook controls on PostgreSQL', () => {
  if (skip) {
    it.skip('needs PostgreSQL');
    return;
  }
  const { servers } = useTwoServers({ control: { token: TOKEN } });
  let receiver: Receiver;
  const controls: SandboxClient[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
    controls.push(...servers.map((server) => connectSandbox(server.control!)));
  });
  afterAll(() => receiver?.close());

  it('expires through one process a token issued through the other', async () => {
    const [a, b] = servers as [StorefrontServer, StorefrontServer];
    const { accessToken } = await controls[0]!.issueToken({ scope: 'admin' });
    const root = (server: StorefrontServer) =>
      fetch(`${server.baseUrl}/`, { headers: { authorization: `Bearer ${accessToken}` } });
    // Before any request of the API reaches the other process: the control catches up by itself.
    await controls[1]!.expireToken(accessToken);
    expect((await root(a)).status).toBe(401);
    expect((await root(b)).status).toBe(401);
  });

  it('lists through one process the deliveries of an event triggered through the other', async () => {
    const [a] = servers as [StorefrontServer, StorefrontServer];
    const { accessToken } = await controls[0]!.issueToken({ scope: 'admin' });
    const endpoint = await fetch(`${a.baseUrl}/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['order.created'] }),
    });
    expect(endpoint.status).toBe(201);
    const shop = a.store.all('shops')[0]!.id;
    const event = (await controls[1]!.trigger('order.created', { shop })) as { id: string };
    await Promise.all(controls.map((control) => control.webhooks.drain()));
    await receiver.until(1);
    const listed = async (control: SandboxClient) =>
      (await control.webhooks.deliveries()).filter((d) => d.event_id === event.id).map((d) => d.status);
    // The attempt is recorded by whichever process made it; both list it.
    await expect.poll(() => listed(controls[0]!)).toEqual(['succeeded']);
    expect(await listed(controls[1]!)).toEqual(['succeeded']);
  });
});
