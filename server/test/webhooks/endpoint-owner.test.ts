/**
 * An endpoint is sent the events of its creator's shops, so it is its creator's: another user of the same app
 * (the demo app's and the explorer's client ids are shared by every user) sees none of it, its attempts or its
 * pings, and cannot change, rotate, ping or resend through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Doc, startThemeServer, type ThemeServer } from '../themes/fixture.js';
import { type Receiver, startReceiver } from './receiver.js';

let t: ThemeServer;
let owner: Receiver;
let other: Receiver;

beforeAll(async () => {
  t = await startThemeServer();
  owner = await startReceiver();
  other = await startReceiver();
});
afterAll(async () => {
  await t.server.close();
  await owner.close();
  await other.close();
});

describe('a webhook endpoint belongs to the user who created it, within its app', () => {
  it('is not found by another user of the same app, nor are its attempts and pings', async () => {
    // The owner of shop 3 and the demo user (shops 1 and 2) hold tokens of the same app.
    const endpoint = await t.json<Doc>('/webhook_endpoints', {
      method: 'POST',
      token: t.otherAdmin,
      json: { url: owner.url, events: ['theme.updated'] },
      status: 201,
    });
    const self = endpoint._links.self.href as string;
    const etag = (await t.call(self, { token: t.otherAdmin })).headers.get('etag')!;
    const ping = await t.json<Doc>(`${self}/ping`, { method: 'POST', token: t.otherAdmin, status: 201 });
    await t.server.webhooks.drain();

    const listed = await t.json<Doc>('/webhook_endpoints.json', { status: 200 });
    expect(listed._embedded.items.map((item: Doc) => item.id)).not.toContain(endpoint.id);
    const refused = [
      await t.call(self),
      await t.call(self, { method: 'PUT', json: { url: other.url }, headers: { 'if-match': etag } }),
      await t.call(`${self}/rotate_secret`, { method: 'POST' }),
      await t.call(`${self}/ping`, { method: 'POST' }),
      await t.call(endpoint._links['svc:deliveries'].href),
      await t.call(ping._links.self.href),
      await t.call(`${ping._links.self.href}/resend`, { method: 'POST' }),
      await t.call(`/events/${ping.event_id}.json`),
      await t.call(self, { method: 'DELETE', headers: { 'if-match': etag } }),
    ];
    expect(refused.map((response) => response.status)).toEqual(refused.map(() => 404));
    await Promise.all(refused.map((response) => response.text()));

    // Still the owner's, unchanged: a write to shop 3 goes to the owner's receiver only.
    const theme = await t.json<Doc>('/shops/3/theme.json', { token: t.otherAdmin, status: 200 });
    await t.json(`/themes/${theme.id}`, { method: 'PUT', token: t.otherAdmin, json: { title: 'Ours' }, status: 200 });
    await t.server.webhooks.drain();
    expect(other.received).toHaveLength(0);
    expect(owner.received.map((delivery) => JSON.parse(delivery.body).type)).toEqual(['ping', 'theme.updated']);
    const own = await t.json<Doc>('/webhook_endpoints.json', { token: t.otherAdmin, status: 200 });
    expect(own._embedded.items.map((item: Doc) => item.id)).toEqual([endpoint.id]);
  });

  it('counts toward its user’s limit of endpoints, not the other users’', async () => {
    const mine: Doc[] = [];
    for (let i = 0; i < 16; i++) {
      mine.push(await t.json('/webhook_endpoints', { method: 'POST', json: { url: owner.url }, status: 201 }));
    }
    const refused = await t.call('/webhook_endpoints', { method: 'POST', json: { url: owner.url } });
    expect(refused.status).toBe(422);
    await refused.text();
    // The other user's endpoint (of the test above) did not use up one of the demo user's sixteen, and the demo
    // user's sixteen leave the other user room.
    await t.json('/webhook_endpoints', { method: 'POST', token: t.otherAdmin, json: { url: owner.url }, status: 201 });
    for (const endpoint of mine) await t.call(endpoint._links.self.href, { method: 'DELETE' });
  });
});
