/**
 * The MSW door: the mock's snapshots, clock and journal, and its token, event and webhook helpers (the same cases
 * as their twins over HTTP, twin-scenarios.ts), through MSW's `setupServer`.
 */
import { describe, expect, test } from 'vitest';
import { useMock } from '../msw/mocked.js';
import { type TwinDoor, twinScenarios } from './twin-scenarios.js';

const { mock, clientToken, call } = useMock();

test('a snapshot outlasts reset() and puts the data back as it was taken', async () => {
  const first = mock.store.all('products')[0]!;
  const rename = (title: string) => mock.store.write((tx) => tx.update('products', first.id, { title }));
  await rename('In the snapshot');
  await mock.snapshots.take('named');
  await rename('After it');
  mock.reset();
  expect(mock.store.get('products', first.id)!.title).toBe(first.title);
  await mock.snapshots.restore('named');
  expect(mock.store.get('products', first.id)!.title).toBe('In the snapshot');
  expect((await mock.snapshots.list()).map((s) => s.name)).toEqual(['named']);
  await mock.snapshots.delete('named');
  await expect(mock.snapshots.restore('named')).rejects.toThrow('No snapshot named "named"');
  await expect(mock.snapshots.take('no spaces')).rejects.toThrow('letters, digits');
});

test('the clock moves token expiry', async () => {
  const token = await clientToken('admin');
  expect((await call(`${mock.baseUrl}/`, token)).status).toBe(200);
  const before = mock.clock.now();
  mock.clock.advance(2 * 3_600_000);
  expect(mock.clock.now() - before).toBeGreaterThanOrEqual(2 * 3_600_000);
  expect((await call(`${mock.baseUrl}/`, token)).status).toBe(401);
  mock.clock.set(before);
  expect((await call(`${mock.baseUrl}/`, token)).status).toBe(200);
  expect(() => mock.clock.set(Number.NaN)).toThrow('finite');
  expect(() => mock.clock.set(1e300)).toThrow('a date can hold');
  expect(() => mock.clock.advance(-1e17)).toThrow('a date can hold');
  expect((await call(`${mock.baseUrl}/`, token)).status).toBe(200);
});

test('the journal records what the mock answered', async () => {
  mock.journal.clear();
  const token = await clientToken('admin');
  await call(`${mock.baseUrl}/`, token, { headers: { 'x-request-id': 'from-test' } });
  await fetch(`${mock.baseUrl}/nowhere`);
  const entries = mock.journal.entries();
  expect(entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
    'POST /oauth/token 200',
    'GET /v1/ 200',
    'GET /v1/nowhere 404',
  ]);
  expect(entries[1]).toMatchObject({ request_id: 'from-test', app_id: mock.store.all('apps')[0]!.id });
  expect(mock.journal.entries({ status: 404 })).toEqual([expect.objectContaining({ route: null })]);
  mock.journal.clear();
  expect(mock.journal.entries()).toEqual([]);
});

const door = (): TwinDoor => ({
  issueToken: (options) => mock.issueToken(options),
  expireToken: (token) => mock.expireToken(token),
  trigger: (type, options) => mock.trigger(type, options),
  deliveries: async () => mock.webhooks.deliveries(),
  drain: () => mock.webhooks.drain(),
  fetch: (path, init) => fetch(`${mock.origin}${path}`, init),
  shopId: () => mock.store.all('shops')[0]!.id,
  now: async () => mock.clock.now(),
});

describe('the token, event and webhook helpers', () => {
  twinScenarios(door);
});
