/**
 * The request id of a write, kept with its event in PostgreSQL: a write through one server names its request in
 * the event that the other server lists, and in the delivery (`Storefront-Request-Id`) whichever process makes it.
 */
import type { StorefrontServer } from '@storefront-platform/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { clientToken } from '../helpers/test-server.js';
import type { Doc } from '../themes/fixture.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';
import { useTwoServers } from './two-servers.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL event request id tests');

describe.skipIf(skip)('request ids of events on PostgreSQL, across two servers', () => {
  const { servers } = useTwoServers();
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  it("lists through one server the event of a write through the other, with the write's request id", async () => {
    const [a, b] = servers as [StorefrontServer, StorefrontServer];
    const token = await clientToken(a);
    const call = (server: StorefrontServer, path: string, init: RequestInit = {}) =>
      fetch(`${server.baseUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
      });
    const endpoint = await call(a, '/webhook_endpoints', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url, events: ['template.created'] }),
    });
    expect(endpoint.status).toBe(201);
    const theme = (await (await call(a, '/shops/1/theme.json')).json()) as Doc;
    const created = await call(a, `/themes/${theme.id}/templates`, {
      method: 'POST',
      headers: { 'x-request-id': 'pg-write-1' },
      body: JSON.stringify({ file_name: 'partials/pg-id.html', body: '<p>pg</p>' }),
    });
    expect(created.status).toBe(201);
    const listed = (await (await call(b, '/events.json?types=template.created')).json()) as Doc;
    expect(listed._embedded.items.at(-1)).toMatchObject({ type: 'template.created', request_id: 'pg-write-1' });
    await Promise.all(servers.map((server) => server.webhooks.drain()));
    await receiver.until(1);
    expect(JSON.parse(receiver.received[0]!.body).request_id).toBe('pg-write-1');
    expect(receiver.received[0]!.headers['storefront-request-id']).toBe('pg-write-1');
  });
});
