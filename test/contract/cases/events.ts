/**
 * Events and webhook endpoints (events.md): the event a write leaves (naming the write's request), the event list
 * and one event, an endpoint's create, reads, update, secret rotation and delete. Pings, deliveries and resends are
 * left to the servers' own tests: their attempts are made by a loop outside the request, at times the two targets
 * need not share.
 */
import { expect } from 'vitest';
import { BASE } from '../fixture.js';
import type { ContractCase } from './types.js';

export const eventCases: ContractCase[] = [
  {
    name: 'events: a write’s event in the list and by itself; webhook endpoints created, read, updated, rotated, deleted',
    async run(s) {
      const admin = await s.token('admin');
      const root = (await s.send('root', BASE, { token: admin })).json();
      expect(root._links['svc:events'].templated).toBe(true);
      const created = await s.send('a template, which writes an event', `${BASE}/themes/1/templates`, {
        method: 'POST',
        token: admin,
        json: { file_name: 'snippets/evented.html', body: '<p>evented</p>' },
        // The client's own id, kept by both targets: the event names the write by it.
        headers: { 'x-request-id': 'contract-write-1' },
      });
      expect(created.status).toBe(201);
      const list = await s.send('events of that type', `${BASE}/events.json?types=template.created`, { token: admin });
      const event = list.json()._embedded.items.at(-1);
      expect(event).toMatchObject({ type: 'template.created', shop_id: '1', request_id: 'contract-write-1' });
      await s.send('the event', event._links.self.href, { token: admin });
      await s.send('an unknown event type', `${BASE}/events.json?types=coupon.created`, { token: admin });

      const endpoint = await s.send('an endpoint', `${BASE}/webhook_endpoints`, {
        method: 'POST',
        token: admin,
        json: { url: 'http://localhost:9/contract', events: ['order.created'], description: 'contract' },
      });
      expect(endpoint.status).toBe(201);
      const self = endpoint.json()._links.self.href;
      await s.send('the endpoints', `${BASE}/webhook_endpoints.json`, { token: admin });
      await s.send('the endpoint', self, { token: admin });
      await s.send('the endpoint updated', self, { method: 'PUT', token: admin, json: { status: 'disabled' } });
      await s.send('an unknown event type refused', self, { method: 'PUT', token: admin, json: { events: ['x'] } });
      await s.send('its secret rotated', `${self}/rotate_secret`, { method: 'POST', token: admin });
      await s.send('its attempts', `${self}/deliveries.json`, { token: admin });
      expect((await s.send('the endpoint deleted', self, { method: 'DELETE', token: admin })).status).toBe(204);
      await s.send('the endpoint gone', self, { token: admin });
    },
  },
];
