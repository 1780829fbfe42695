/**
 * The PostgreSQL project only: a sandbox served by two workers. A fault rule and a restore set through the control
 * API, itself served by either worker, hold for every request, whichever worker serves it. Each request is on a
 * connection of its own, and they are sent at once, so that the kernel hands them to both workers.
 */
import { expect, test } from '../fixtures.js';
import { addEndpoint, endpointUrls } from './endpoints.js';

const REQUESTS = 16;

/** `REQUESTS` of `request()` at once. */
const all = <T>(request: () => Promise<T>) => Promise.all(Array.from({ length: REQUESTS }, request));

test.beforeEach(({ sandbox }) => {
  expect(sandbox.workers).toBe(2);
});

test('a fault rule holds on every worker, and clearing it too', async ({ sandbox }) => {
  const token = await sandbox.token();
  await sandbox.control.faults.add({ kind: 'status', status: 503, retry_after: 1, method: 'GET', path: '/v1/' });
  const hit = await all(async () => (await sandbox.fetch('/v1/', { token })).status);
  expect(hit).toEqual(Array(REQUESTS).fill(503));
  await sandbox.control.faults.clear();
  const cleared = await all(async () => (await sandbox.fetch('/v1/', { token })).status);
  expect(cleared).toEqual(Array(REQUESTS).fill(200));
});

test('a restore holds on every worker', async ({ sandbox }) => {
  const token = await sandbox.token();
  await sandbox.control.snapshots.take('before');
  await addEndpoint(sandbox, token, 'http://hooks.test/fleet');
  expect(await all(() => endpointUrls(sandbox, token))).toEqual(Array(REQUESTS).fill(['http://hooks.test/fleet']));
  await sandbox.control.snapshots.restore('before');
  // The token was issued after the snapshot and is gone with it.
  const fresh = await sandbox.token();
  expect(await all(() => endpointUrls(sandbox, fresh))).toEqual(Array(REQUESTS).fill([]));
});
