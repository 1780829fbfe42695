/**
 * A resend on PostgreSQL, across two servers: once the receiver acknowledged the resend (made by one process), the
 * original series' next attempt is ended unsent in the shared store, and no process sends it.
 */
import type { StorefrontServer } from '@storefront-platform/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { clientToken } from '../helpers/test-server.js';
import type { Doc } from '../themes/fixture.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';
import { useTwoServers } from './two-servers.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL webhook resend tests');

describe.skipIf(skip)('a resend on PostgreSQL, across two servers', () => {
  let now = Date.now();
  // Tokens outlive the hour the clock is moved by.
  const { servers } = useTwoServers({ clock: { now: () => now }, tokenTtl: 86_400 });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  it("does not send the original series' next attempt once the resend was acknowledged", async () => {
    const [a, b] = servers as [StorefrontServer, StorefrontServer];
    const token = await clientToken(a);
    const api = async (server: StorefrontServer, path: string, method = 'GET', body?: unknown): Promise<Doc> => {
      const response = await fetch(path.startsWith('http') ? path : `${server.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
      return (await response.json()) as Doc;
    };
    const drain = () => Promise.all(servers.map((server) => server.webhooks.drain()));
    const endpoint = await api(a, '/webhook_endpoints', 'POST', { url: receiver.url });
    receiver.answer = () => ({ status: 500 });
    const first = await api(a, `/webhook_endpoints/${endpoint.id}/ping`, 'POST');
    await drain();
    now += 10_000;
    await drain();
    const listed = async () =>
      ((await api(b, `/webhook_endpoints/${endpoint.id}/deliveries?per_page=100`))._embedded.items as Doc[]).reverse();
    const third = (await listed()).find((d) => d.attempt === 3)!;
    expect(third).toMatchObject({ status: 'pending' });
    receiver.answer = () => ({ status: 204 });
    const resent = await api(b, `/webhook_deliveries/${first.id}/resend`, 'POST');
    await drain();
    now += 3_600_000;
    await drain();
    expect(receiver.received).toHaveLength(3);
    const deliveries = await listed();
    expect(deliveries.find((d) => d.id === resent.id)).toMatchObject({ status: 'succeeded' });
    expect(deliveries.find((d) => d.id === third.id)).toMatchObject({
      status: 'failed',
      error: `Not sent: delivery ${resent.id} of this event succeeded`,
      attempted_on: null,
      next_attempt_on: null,
    });
    expect(deliveries).toHaveLength(4);
  });
});
