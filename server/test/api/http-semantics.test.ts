/**
 * The HTTP behaviour every route shares (the core's pipeline), checked over real HTTP through Express:
 * conditional requests, HEAD, JSONP, CORS, gzip, and the error statuses with their bodies.
 */
import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Doc, useThemeServer } from '../themes/fixture.js';

const t = useThemeServer();
let templateUrl: string;
beforeAll(async () => {
  const theme = await t.json('/shops/1/theme.json', { status: 200 });
  const template = (theme._embedded.templates as Doc[]).find((x) => x.file_name !== 'layout.html')!;
  templateUrl = template._links.self.href;
});

const CACHE_CONTROL = 'must-revalidate, private, max-age=0';

describe('headers of every API response', () => {
  it.each(['', '/shops/1', '/products?per_page=2', '/orders', '/shops/1/theme.json'])('GET %s', async (path) => {
    const response = await t.call(path, { headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Date.parse(response.headers.get('last-modified')!)).not.toBeNaN();
    expect(response.headers.get('cache-control')).toBe(CACHE_CONTROL);
    expect(response.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(response.headers.get('x-oauth-scopes')).toBe('admin');
    expect(response.headers.get('x-accepted-oauth-scopes')).toMatch(/^(public|admin)$/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'ETag, Last-Modified, Location, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, Retry-After, WWW-Authenticate, X-Request-Id, Idempotent-Replayed, RateLimit-Policy, RateLimit',
    );
  });

  it('reports the scope the theme read needs', async () => {
    const response = await t.call('/shops/1/theme.json');
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('admin');
  });

  it('sends the scope headers on API errors too, empty when no token was checked', async () => {
    const unknown = await t.call('/nothing/here', { token: null });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-oauth-scopes')).toBe('');
    expect(unknown.headers.get('x-accepted-oauth-scopes')).toBe('');
    const refused = await t.call('/orders', { token: null });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-oauth-scopes')).toBe('');
    expect(refused.headers.get('x-accepted-oauth-scopes')).toBe('admin');
  });

  it('leaves the scope headers off what is not the API: theme files, relation pages', async () => {
    const theme = await t.json('/shops/1/theme.json', { status: 200 });
    const asset = (theme._embedded.assets as Doc[])[0]!;
    const responses = [
      await fetch(asset._links.file.href),
      await fetch(theme._links['svc:theme_preview'].href),
      await fetch(`${t.server.origin}/rels/update_template`),
      await fetch(`${t.server.origin}/static/themes/1/assets/0/nothing.png`),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 404]);
    for (const response of responses) {
      expect(response.headers.get('x-oauth-scopes'), response.url).toBeNull();
      expect(response.headers.get('x-accepted-oauth-scopes'), response.url).toBeNull();
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
  });
});

describe('conditional GET', () => {
  it('answers 304 to a matching If-None-Match, with validators and no body', async () => {
    const first = await t.call('/shops/1/theme.json');
    const etag = first.headers.get('etag')!;
    const again = await t.call('/shops/1/theme.json', {
      headers: { 'if-none-match': etag, 'cache-control': 'no-cache' },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('last-modified')).toBe(first.headers.get('last-modified'));
    expect(again.headers.get('cache-control')).toBe(CACHE_CONTROL);
    expect(await again.text()).toBe('');
  });

  it('compares If-None-Match weakly and accepts lists and *', async () => {
    const etag = (await t.call('/shops/1')).headers.get('etag')!;
    for (const value of [`W/${etag}`, `"nope", ${etag}`, '*']) {
      expect((await t.call('/shops/1', { headers: { 'if-none-match': value } })).status).toBe(304);
    }
    expect((await t.call('/shops/1', { headers: { 'if-none-match': '"nope"' } })).status).toBe(200);
  });

  it('answers 304 to If-Modified-Since at or after Last-Modified, also with Cache-Control: no-cache', async () => {
    const first = await t.call('/shops/1/theme.json');
    const lastModified = first.headers.get('last-modified')!;
    const later = new Date(Date.parse(lastModified) + 5000).toUTCString();
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    const ims = (value: string) =>
      t.call('/shops/1/theme.json', { headers: { 'if-modified-since': value, 'cache-control': 'no-cache' } });
    expect((await ims(lastModified)).status).toBe(304);
    expect((await ims(later)).status).toBe(304);
    expect((await ims(earlier)).status).toBe(200);
    expect((await ims('yesterday')).status).toBe(200);
  });

  it('gives If-None-Match precedence over If-Modified-Since', async () => {
    const first = await t.call('/shops/1');
    const response = await t.call('/shops/1', {
      headers: { 'if-none-match': '"other"', 'if-modified-since': first.headers.get('last-modified')! },
    });
    expect(response.status).toBe(200);
  });

  it('moves the theme’s validators when a template changes', async () => {
    const before = await t.call('/shops/1/theme.json');
    const put = await t.call(templateUrl, { method: 'PUT', json: { body: '<p>changed</p>' } });
    expect(put.status).toBe(200);
    const stale = await t.call('/shops/1/theme.json', {
      headers: { 'if-modified-since': before.headers.get('last-modified')!, 'cache-control': 'no-cache' },
    });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });
});

describe('HEAD', () => {
  it.each(['', '/shops.json', '/products', '/shops/1/theme.json'])(
    'HEAD %s: the GET headers, no body',
    async (path) => {
      const get = await t.call(path);
      const head = await t.call(path, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(await head.text()).toBe('');
    },
  );

  it('answers a conditional HEAD with 304', async () => {
    const etag = (await t.call('/shops/1')).headers.get('etag')!;
    expect((await t.call('/shops/1', { method: 'HEAD', headers: { 'if-none-match': etag } })).status).toBe(304);
  });
});

describe('JSONP', () => {
  it.each(['/shops/1', '/products', '', '/shops/1/theme'])('wraps %s in the callback', async (path) => {
    const json = await (await t.call(`${path}.json`)).text();
    const response = await t.call(`${path}.jsonp?callback=app.handle_1`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe(`/**/app.handle_1(${json});`);
  });

  it.each([
    ['missing', ''],
    ['script', '?callback=alert(1)'],
    ['leading digit', '?callback=1cb'],
    ['trailing dot', '?callback=cb.'],
    ['too long', `?callback=${'a'.repeat(200)}`],
  ])('refuses a %s callback with a 400', async (_, search) => {
    const response = await t.call(`/shops/1.jsonp${search}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await response.json())._class).toEqual(['errors']);
  });

  it("tells the token's scopes in the 400 of a bad callback, whichever way the token came", async () => {
    const header = await t.call('/shops/1.jsonp?callback=alert(1)');
    expect(header.status).toBe(400);
    expect(header.headers.get('x-oauth-scopes')).toBe('admin');
    expect(header.headers.get('x-accepted-oauth-scopes')).toBe('public');
    const query = await t.call(`/shops/1.jsonp?callback=cb;access_token=${t.publicToken}`, { token: null });
    expect(query.status).toBe(400);
    const fromQuery = await t.call(`/shops/1.jsonp?callback=1cb&access_token=${t.publicToken}`, { token: null });
    expect(fromQuery.headers.get('x-oauth-scopes')).toBe('public');
    const invalid = await t.call('/shops/1.jsonp?callback=1cb&access_token=nope', { token: null });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('x-oauth-scopes')).toBe('');
  });

  it('accepts the access_token query parameter there only', async () => {
    const jsonp = await t.call(`/shops/1.jsonp?callback=cb&access_token=${t.publicToken}`, { token: null });
    expect(jsonp.status).toBe(200);
    expect(jsonp.headers.get('x-oauth-scopes')).toBe('public');
    const json = await t.call(`/shops/1.json?access_token=${t.publicToken}`, { token: null });
    expect(json.status).toBe(401);
  });

  it('keeps the status of an error and wraps its body', async () => {
    const response = await t.call('/shops/999.jsonp?callback=cb');
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/^\/\*\*\/cb\(\{"_class":\["errors"\],"message":".*"\}\);$/);
  });

  it('exists for GET only', async () => {
    const response = await t.call(`${templateUrl}.jsonp?callback=cb`, { method: 'PUT', json: { body: 'x' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('CORS', () => {
  it('answers a preflight for any path', async () => {
    const response = await t.call('/shops/1/theme.json', {
      method: 'OPTIONS',
      token: null,
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type, if-match',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('if-match');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('opens errors too', async () => {
    const response = await t.call('/orders', { token: null });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('gzip', () => {
  it('compresses when the client accepts it, keeping the validators', async () => {
    const url = new URL(`${t.base}/shops/1/theme.json`);
    const response = await new Promise<{ headers: Record<string, unknown>; bytes: number }>((resolve, reject) => {
      const req = httpRequest(
        url,
        { headers: { authorization: `Bearer ${t.admin}`, 'accept-encoding': 'gzip' } },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on('end', () => resolve({ headers: res.headers, bytes }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    const plain = await (await t.call('/shops/1/theme.json', { headers: { 'accept-encoding': 'identity' } })).text();
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.bytes).toBeLessThan(new TextEncoder().encode(plain).length);
    // The gzip bytes are another representation, with a strong tag of their own (RFC 9110 §8.8.3).
    const identity = (await t.call('/shops/1/theme.json', { headers: { 'accept-encoding': 'identity' } })).headers;
    expect(response.headers.etag).toBe(identity.get('etag')!.replace(/"$/, '-gzip"'));
  });
});

describe('errors', () => {
  const expectError = async (response: Response, status: number) => {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // No validators on errors (RFC 9110 §8.8): a client could take the error body's for the resource's.
    expect(response.headers.get('etag')).toBeNull();
    expect(response.headers.get('last-modified')).toBeNull();
    expect(response.headers.get('date')).not.toBeNull();
    const body = await response.json();
    expect(body).toEqual(expect.objectContaining({ _class: ['errors'], message: expect.any(String) }));
    return body;
  };

  it('404 for an unknown route, under the API and elsewhere', async () => {
    await expectError(await t.call('/nothing/here'), 404);
    await expectError(await t.call(`${t.server.origin}/elsewhere`), 404);
  });

  it('405 with Allow for a known path and the wrong method', async () => {
    const response = await t.call('/shops/1.json', { method: 'DELETE' });
    await expectError(response, 405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const template = await t.call(templateUrl, { method: 'POST', json: {} });
    expect(template.status).toBe(405);
    expect(template.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
  });

  it('400 for malformed JSON, 415 for another body type, 413 past the limit', async () => {
    await expectError(
      await t.call(templateUrl, { method: 'PUT', body: '{"body": ', headers: { 'content-type': 'application/json' } }),
      400,
    );
    await expectError(
      await t.call(templateUrl, { method: 'PUT', body: 'body=x', headers: { 'content-type': 'text/plain' } }),
      415,
    );
    await expectError(await t.call(templateUrl, { method: 'PUT', json: { body: 'x'.repeat(3 * 1024 * 1024) } }), 413);
  });

  it('422 on the field for unknown members (__proto__ and constructor too) and wrong types', async () => {
    const unknown = await expectError(await t.call(templateUrl, { method: 'PUT', json: { bdy: 'typo' } }), 422);
    expect(unknown._embedded.errors).toEqual([{ field: 'bdy', messages: [expect.stringContaining('unknown')] }]);
    for (const key of ['__proto__', 'constructor']) {
      const body = await expectError(
        await t.call(templateUrl, {
          method: 'PUT',
          body: `{"${key}": {"polluted": true}}`,
          headers: { 'content-type': 'application/json' },
        }),
        422,
      );
      expect(body._embedded.errors[0].field).toBe(key);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const wrongType = await expectError(await t.call(templateUrl, { method: 'PUT', json: { body: 42 } }), 422);
    expect(wrongType._embedded.errors).toEqual([{ field: 'body', messages: ['must be a string'] }]);
  });

  it('412 for a failed If-Match, and the write goes through with the current ETag', async () => {
    const current = await t.call(templateUrl);
    const etag = current.headers.get('etag')!;
    await expectError(
      await t.call(templateUrl, { method: 'PUT', json: { body: 'lost' }, headers: { 'if-match': '"stale"' } }),
      412,
    );
    expect((await (await t.call(templateUrl)).json()).body).not.toBe('lost');
    const ok = await t.call(templateUrl, { method: 'PUT', json: { body: 'kept' }, headers: { 'if-match': etag } });
    expect(ok.status).toBe(200);
    await expectError(await t.call(templateUrl, { method: 'DELETE', headers: { 'if-match': etag } }), 412);
  });

  it('400 for malformed percent-encoding in the path', async () => {
    await expectError(await t.call('/shops/%E0%A4%A'), 400);
  });
});
