/** The request journal: what each request asked and was answered, filtered, then cleared. */
import { expect, test } from '../fixtures.js';

test('journals each request with its route, status, request id and app', async ({ sandbox }) => {
  const token = await sandbox.token();
  const app = await sandbox.fetch('/v1/webhook_endpoints.json', { token, headers: { 'x-request-id': 'req-listed' } });
  expect(app.status).toBe(200);
  expect((await sandbox.fetch('/v1/nowhere', { headers: { 'x-request-id': 'req-missing' } })).status).toBe(404);

  const entries = await sandbox.control.journal.entries({ path: '/v1/webhook_endpoints.json' });
  expect(entries).toEqual([
    expect.objectContaining({
      method: 'GET',
      status: 200,
      request_id: 'req-listed',
      route: 'GET /v1/webhook_endpoints',
      app_id: expect.any(String),
      user_id: expect.any(String),
    }),
  ]);
  expect(entries[0]!.duration_ms).toBeGreaterThanOrEqual(0);
  expect(await sandbox.control.journal.entries({ status: 404 })).toEqual([
    expect.objectContaining({ path: '/v1/nowhere', request_id: 'req-missing', route: null }),
  ]);
  const tokenCalls = await sandbox.control.journal.entries({ method: 'POST', path: '/oauth/token' });
  expect(tokenCalls.map((entry) => entry.status)).toEqual([200]);

  await sandbox.control.journal.clear();
  expect(await sandbox.control.journal.entries()).toEqual([]);
});
