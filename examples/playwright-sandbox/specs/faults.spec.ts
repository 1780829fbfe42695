/**
 * Each kind of fault rule, added through the control API, met by a client: the browser for a status, Node's
 * `fetch` for the kinds that act on the connection.
 */
import { expect, test } from '../fixtures.js';

test('a status fault answers in the API error shape, with Retry-After, `times` times', async ({ sandbox, page }) => {
  // The page as an app's page calls the API: with its token.
  await page.setExtraHTTPHeaders({ authorization: `Bearer ${await sandbox.token()}` });
  await sandbox.control.faults.add({
    kind: 'status',
    status: 503,
    retry_after: 7,
    method: 'GET',
    path: '/v1/',
    times: 1,
  });
  const response = await page.goto(`${sandbox.baseUrl}/`);
  expect(response?.status()).toBe(503);
  expect(response?.headers()['retry-after']).toBe('7');
  // Named like every error of the API: the id in the body is the answer's `X-Request-Id`.
  expect(await response?.json()).toEqual({
    _class: ['errors'],
    message: 'Service unavailable',
    request_id: response?.headers()['x-request-id'],
  });
  // Spent: the API answers again.
  expect((await page.goto(`${sandbox.baseUrl}/`))?.status()).toBe(200);
  expect(await sandbox.control.faults.list()).toEqual([
    expect.objectContaining({ kind: 'status', status: 503, times: 0, hits: 1 }),
  ]);
});

test('a delay fault holds the request, then the API answers it', async ({ sandbox }) => {
  await sandbox.control.faults.add({ kind: 'delay', delay_ms: 400, path: '/v1/', times: 1 });
  const token = await sandbox.token();
  const started = performance.now();
  const response = await sandbox.fetch('/v1/', { token });
  expect(response.status).toBe(200);
  expect(performance.now() - started).toBeGreaterThanOrEqual(390);
});

test('a reset fault cuts the connection with nothing sent', async ({ sandbox }) => {
  const token = await sandbox.token();
  await sandbox.control.faults.add({ kind: 'reset', path: '/v1/', times: 1 });
  await expect(sandbox.fetch('/v1/', { token })).rejects.toThrow(TypeError);
  expect((await sandbox.fetch('/v1/', { token })).status).toBe(200);
});

test('a truncated fault sends the headers and part of the body, then ends the connection', async ({ sandbox }) => {
  const token = await sandbox.token();
  await sandbox.control.faults.add({ kind: 'truncated', path: '/v1/', bytes: 10, times: 1 });
  const response = await sandbox.fetch('/v1/', { token });
  expect(response.status).toBe(200);
  expect(Number(response.headers.get('content-length'))).toBeGreaterThan(10);
  await expect(response.text()).rejects.toThrow();
  expect((await sandbox.fetch('/v1/', { token })).status).toBe(200);
});

test('the same seed gives the same hits', async ({ sandbox }) => {
  const token = await sandbox.token();
  const run = async () => {
    await sandbox.control.faults.clear();
    await sandbox.control.faults.add({ kind: 'status', status: 502, path: '/v1/', probability: 0.5, seed: 42 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await sandbox.fetch('/v1/', { token })).status);
    return statuses;
  };
  const first = await run();
  expect(new Set(first)).toEqual(new Set([200, 502]));
  expect(await run()).toEqual(first);
});
