/**
 * The theme endpoints through the MSW handlers, which wrap the same core as the server without Express and
 * without a network: the uploads' body parsing (base64, multipart through the platform's `formData()`), the
 * file bytes and the preview must come out the same.
 */
import { createHash } from 'node:crypto';
import { createHandlers } from '@storefront-platform/server/msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../../src/seed/images.js';
import type { Doc } from './fixture.js';

const mock = createHandlers();
const server = setupServer(...mock.handlers);
let token: string;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  token = (await mock.issueToken({ scope: 'admin' })).accessToken;
});
afterAll(() => server.close());

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const PNG = new Uint8Array(png(6, 4, (x, y) => [x * 40, y * 60, 90]));

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(`${mock.baseUrl}${path}`, { ...init, headers });
}

describe('themes through the MSW handlers', () => {
  it('serve the theme with 304s', async () => {
    const response = await api('/shops/1/theme.json');
    expect(response.status).toBe(200);
    const theme = (await response.json()) as Doc;
    expect(theme._class).toEqual(['theme']);
    const etag = response.headers.get('etag')!;
    expect((await api('/shops/1/theme.json', { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('take base64 and multipart uploads, and serve the same bytes from the file link', async () => {
    const json = await api('/themes/1/assets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file_name: 'mock/a.png', data: Buffer.from(PNG).toString('base64') }),
    });
    expect(json.status).toBe(201);
    const form = new FormData();
    form.set('file', new Blob([PNG], { type: 'image/png' }), 'b.png');
    const multipart = await api('/themes/1/assets', { method: 'POST', body: form });
    expect(multipart.status).toBe(201);
    for (const asset of [(await json.json()) as Doc, (await multipart.json()) as Doc]) {
      expect(asset.digest).toBe(md5(PNG));
      const file = await fetch(asset._links.file.href);
      expect(file.headers.get('content-type')).toBe('image/png');
      const bytes = new Uint8Array(await file.arrayBuffer());
      expect(md5(bytes)).toBe(asset.digest);
      expect(bytes.byteLength).toBe(asset.file_size);
    }
    const fake = new FormData();
    fake.set('file', new Blob([PNG]), 'fake.gif');
    expect((await api('/themes/1/assets', { method: 'POST', body: fake })).status).toBe(422);
  });

  it('write templates and show them in the preview', async () => {
    const created = await api('/themes/1/templates', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file_name: 'styles/mock.css', body: 'p { color: teal; }' }),
    });
    expect(created.status).toBe(201);
    const theme = (await (await api('/themes/1')).json()) as Doc;
    const preview: string = theme._links['svc:theme_preview'].href;
    expect((await fetch(preview)).headers.get('content-type')).toBe('text/html; charset=utf-8');
    const css = await fetch(new URL('styles/mock.css', preview));
    expect([css.status, await css.text()]).toEqual([200, 'p { color: teal; }']);
  });
});
