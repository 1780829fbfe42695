/** Reset, snapshots and the clock, through the control API from this process (the runner's worker). */
import { SandboxError } from '@storefront-platform/server';
import { expect, test } from '../fixtures.js';
import { addEndpoint, endpointUrls } from './endpoints.js';

test('reset returns to the seed', async ({ sandbox }) => {
  const token = await sandbox.token();
  await addEndpoint(sandbox, token, 'http://hooks.test/reset');
  expect(await endpointUrls(sandbox, token)).toEqual(['http://hooks.test/reset']);
  await sandbox.control.reset();
  // The token was issued after the start: the reset took it too.
  expect((await sandbox.fetch('/v1/webhook_endpoints.json', { token })).status).toBe(401);
  expect(await endpointUrls(sandbox, await sandbox.token())).toEqual([]);
});

test('a snapshot is taken, listed, restored and deleted', async ({ sandbox }) => {
  const { control } = sandbox;
  const token = await sandbox.token();
  await addEndpoint(sandbox, token, 'http://hooks.test/kept');
  const taken = await control.snapshots.take('one-endpoint');
  expect(taken.name).toBe('one-endpoint');
  expect((await control.snapshots.list()).map((snapshot) => snapshot.name)).toContain('one-endpoint');
  await addEndpoint(sandbox, token, 'http://hooks.test/dropped');
  expect(await endpointUrls(sandbox, token)).toEqual(['http://hooks.test/dropped', 'http://hooks.test/kept']);

  await control.snapshots.restore('one-endpoint');
  expect(await endpointUrls(sandbox, token)).toEqual(['http://hooks.test/kept']);
  await control.snapshots.delete('one-endpoint');
  expect((await control.snapshots.list()).map((snapshot) => snapshot.name)).not.toContain('one-endpoint');
  const refused = await control.snapshots.restore('one-endpoint').catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(SandboxError);
  expect((refused as SandboxError).status).toBe(404);
});

test('the clock moves, and an access token expires with it', async ({ sandbox }) => {
  const { control } = sandbox;
  const token = await sandbox.token();
  expect((await sandbox.fetch('/v1/webhook_endpoints.json', { token })).status).toBe(200);

  const before = await control.clock.now();
  const after = await control.clock.advance(2 * 3_600_000);
  expect(after.epochMs - before.epochMs).toBeGreaterThanOrEqual(2 * 3_600_000);
  expect(Date.parse(after.now)).toBe(after.epochMs);
  const expired = await sandbox.fetch('/v1/webhook_endpoints.json', { token });
  expect(expired.status).toBe(401);
  expect(expired.headers.get('www-authenticate')).toMatch(/invalid_token/);
  // A token issued on the moved clock is good on it.
  expect((await sandbox.fetch('/v1/webhook_endpoints.json', { token: await sandbox.token() })).status).toBe(200);

  const set = await control.clock.set('2031-05-01T00:00:00Z');
  expect(set.now).toMatch(/^2031-05-01T00:00:0/);
});
