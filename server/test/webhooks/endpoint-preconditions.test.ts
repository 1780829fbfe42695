/** Conditional updates and deletes of a webhook endpoint (RFC 9110 §13.1.1 If-Match). */
import { describe, expect, it } from 'vitest';
import { useThemeServer } from '../themes/fixture.js';

const t = useThemeServer();

async function newEndpoint() {
  const url = 'http://127.0.0.1:9/webhooks';
  const created = await t.call('/webhook_endpoints', { method: 'POST', json: { url, events: ['theme.updated'] } });
  expect(created.status).toBe(201);
  const href = (await created.json())._links.self.href as string;
  return { href, etag: (await t.call(href)).headers.get('etag')! };
}

describe('PUT and DELETE of a webhook endpoint with If-Match', () => {
  it('updates only while the tag is current', async () => {
    const { href, etag } = await newEndpoint();
    const put = (tag: string) =>
      t.call(href, { method: 'PUT', json: { description: 'changed' }, headers: { 'if-match': tag } });
    expect((await put('"stale"')).status).toBe(412);
    expect((await put(etag)).status).toBe(200);
    expect((await put(etag)).status).toBe(412);
  });

  it('deletes only while the tag is current', async () => {
    const { href, etag } = await newEndpoint();
    expect((await t.call(href, { method: 'DELETE', headers: { 'if-match': '"stale"' } })).status).toBe(412);
    expect((await t.call(href, { method: 'DELETE', headers: { 'if-match': etag } })).status).toBe(204);
    expect((await t.call(href)).status).toBe(404);
  });
});
