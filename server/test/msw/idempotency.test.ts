/**
 * The mock answers `Idempotency-Key` as the server does (the same core over its memory store): a create whose
 * answer a `truncated` fault cut is retried by the SDK with its key, and makes one template.
 */
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { afterEach, expect, test } from 'vitest';
import { useMock } from './mocked.js';

const { mock, clientToken, call } = useMock();

afterEach(() => {
  mock.faults.clear();
});

test('a create whose answer was lost is made once, and the retry gets the first answer', async () => {
  mock.faults.add({ kind: 'truncated', method: 'POST', path: '/v1/themes/:id/templates', times: 1 });
  const { clientId, clientSecret } = mock.credentials!;
  const auth = clientCredentials({ authUrl: mock.origin, clientId, clientSecret, scope: 'admin' });
  const client = createClient({ baseUrl: mock.baseUrl, auth, retry: { limit: 2, delay: () => 1 } });
  const theme = await client.root().follow('svc:shop', { id: 1 }).follow('svc:theme');
  const created = await theme.follow('svc:create_template', { file_name: 'mocked-once.html', body: 'x' });
  expect(created.response?.headers.get('idempotent-replayed')).toBe('true');
  const token = await clientToken();
  const list = await call(`${mock.baseUrl}/themes/1/templates/${created.properties.id}`, token);
  expect(list.status).toBe(200);
  const named = mock.journal.entries({ method: 'POST' }).filter((entry) => entry.path === '/v1/themes/1/templates');
  // The cut answer is journaled with the rule that cut it; the replay after it, with an id of its own.
  expect(named.map((entry) => [entry.status, entry.fault !== null])).toEqual([
    [201, true],
    [201, false],
  ]);
  expect(named[1]!.request_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(named[1]!.request_id).not.toBe(named[0]!.request_id);
});

test('the same key with another body is a 422, in the mock too', async () => {
  const token = await clientToken();
  const send = (body: string) =>
    call(`${mock.baseUrl}/themes/1/templates`, token, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': '"mock-key"' },
      body: JSON.stringify({ file_name: 'mock-key.html', body }),
    });
  expect((await send('a')).status).toBe(201);
  expect((await send('a')).headers.get('idempotent-replayed')).toBe('true');
  expect((await send('b')).status).toBe(422);
});
