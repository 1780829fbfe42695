/** What every endpoint shares: validators and 304s, If-Match, JSONP, bearer errors, routing errors, bad bodies, CORS. */
import { expect } from 'vitest';
import { BASE, clock, TOKEN_TTL } from '../fixture.js';
import type { ContractCase } from './types.js';

const THEME = `${BASE}/shops/1/theme.json`;
const TEMPLATE = `${BASE}/themes/1/templates/1`;

export const httpCases: ContractCase[] = [
  {
    name: 'conditional GET and HEAD: If-None-Match, If-Modified-Since, precedence, validators moving on a write',
    async run(s) {
      const admin = await s.token('admin');
      const first = await s.send('theme', THEME, { token: admin });
      expect(first.headers.get('vary')).toMatch(/accept-encoding/i);
      const etag = first.headers.get('etag')!;
      const lastModified = first.headers.get('last-modified')!;
      const same = { token: admin, headers: { 'if-none-match': etag } };
      expect((await s.send('If-None-Match', THEME, same)).status).toBe(304);
      await s.send('If-None-Match, no-cache', THEME, {
        token: admin,
        headers: { ...same.headers, 'cache-control': 'no-cache' },
      });
      await s.send('If-None-Match list and weak', THEME, {
        token: admin,
        headers: { 'if-none-match': `"x", W/${etag}` },
      });
      await s.send('If-None-Match *', THEME, { token: admin, headers: { 'if-none-match': '*' } });
      const since = { token: admin, headers: { 'if-modified-since': lastModified } };
      expect((await s.send('If-Modified-Since', THEME, since)).status).toBe(304);
      await s.send('If-None-Match wins over If-Modified-Since', THEME, {
        token: admin,
        headers: { 'if-none-match': '"other"', 'if-modified-since': lastModified },
      });
      expect((await s.send('conditional HEAD', THEME, { ...same, method: 'HEAD' })).status).toBe(304);
      // The write moves the theme's validators.
      await s.send('template write', TEMPLATE, { method: 'PUT', token: admin, json: { body: '<html></html>' } });
      expect((await s.send('If-None-Match after the write', THEME, same)).status).toBe(200);
    },
  },
  {
    name: 'If-Match on writes: 412 when stale, the write with the current ETag',
    async run(s) {
      const admin = await s.token('admin');
      const current = await s.send('template', TEMPLATE, { token: admin });
      const etag = current.headers.get('etag')!;
      const stale = { 'if-match': '"stale"' };
      expect(
        (await s.send('PUT stale', TEMPLATE, { method: 'PUT', token: admin, json: { body: 'x' }, headers: stale }))
          .status,
      ).toBe(412);
      await s.send('DELETE stale', `${BASE}/themes/1/templates/2`, { method: 'DELETE', token: admin, headers: stale });
      const ok = await s.send('PUT current', TEMPLATE, {
        method: 'PUT',
        token: admin,
        json: { body: 'kept' },
        headers: { 'if-match': etag },
      });
      expect(ok.status).toBe(200);
    },
  },
  {
    name: 'JSONP: wrapped bodies, query token, errors keep their status, bad callbacks',
    async run(s) {
      const admin = await s.token('admin');
      const wrapped = await s.send('theme as JSONP', `${BASE}/shops/1/theme.jsonp?callback=app.onTheme`, {
        token: admin,
      });
      expect(wrapped.text.startsWith('/**/app.onTheme(')).toBe(true);
      await s.send('query token', `${BASE}/shops.jsonp?callback=cb&access_token=${admin}`);
      await s.send('query token HEAD', `${BASE}/shops.jsonp?callback=cb&access_token=${admin}`, { method: 'HEAD' });
      expect((await s.send('query token without .jsonp', `${BASE}/shops.json?access_token=${admin}`)).status).toBe(401);
      expect(
        (await s.send('token twice', `${BASE}/shops.jsonp?callback=cb&access_token=${admin}`, { token: admin })).status,
      ).toBe(400);
      expect((await s.send('missing callback', `${BASE}/shops.jsonp`, { token: admin })).status).toBe(400);
      await s.send('unsafe callback', `${BASE}/shops.jsonp?callback=alert(1)`, { token: admin });
      const error = await s.send('error as JSONP', `${BASE}/shops/99.jsonp?callback=cb`, { token: admin });
      expect(error.status).toBe(404);
      await s.send('JSONP of a write route', `${BASE}/themes/1.jsonp?callback=cb`, {
        method: 'PUT',
        token: admin,
        json: {},
      });
    },
  },
  {
    name: 'bearer errors: none, unknown, malformed, expired by the clock, revoked, insufficient scope',
    async run(s) {
      expect((await s.send('no token', BASE)).headers.get('www-authenticate')).toBe('Bearer realm="storefront"');
      await s.send('unknown token', BASE, { token: 'not-a-token' });
      await s.send('another scheme', BASE, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
      await s.send('malformed bearer', BASE, { headers: { authorization: 'Bearer a b c' } });
      const admin = await s.token('admin');
      clock.advance(TOKEN_TTL * 1000);
      const expired = await s.send('expired', BASE, { token: admin });
      expect(expired.status).toBe(401);
      const publicToken = await s.token('public');
      const forbidden = await s.send('public token on the theme', THEME, { token: publicToken });
      expect(forbidden.status).toBe(403);
      expect(forbidden.headers.get('www-authenticate')).toContain('insufficient_scope');
    },
  },
  {
    name: 'routing errors: 404 under the API and elsewhere, 405 with Allow, bad percent-encoding, CORS preflight',
    async run(s) {
      const admin = await s.token('admin');
      expect((await s.send('unknown API path', `${BASE}/nothing/here`, { token: admin })).status).toBe(404);
      await s.send('unknown path outside the API', '/elsewhere');
      await s.send('unknown static file', '/static/themes/1/assets/abc/logo.png');
      const wrongVerb = await s.send('DELETE on a shop', `${BASE}/shops/1.json`, { method: 'DELETE', token: admin });
      expect(wrongVerb.status).toBe(405);
      expect(wrongVerb.headers.get('allow')).toBeTruthy();
      await s.send('POST on a template', TEMPLATE, { method: 'POST', token: admin, json: {} });
      expect((await s.send('bad percent-encoding', `${BASE}/shops/%E0%A4%A`, { token: admin })).status).toBe(400);
      const preflight = await s.send('preflight', THEME, {
        method: 'OPTIONS',
        headers: { origin: 'http://app.test', 'access-control-request-method': 'PUT' },
      });
      expect(preflight.status).toBe(204);
    },
  },
  {
    name: 'bad bodies: malformed JSON, wrong media type, unknown and mistyped members, over the limits',
    async run(s) {
      const admin = await s.token('admin');
      const put = (label: string, init: { body?: string; json?: unknown; type?: string }) =>
        s.send(label, TEMPLATE, {
          method: 'PUT',
          token: admin,
          ...(init.json === undefined ? {} : { json: init.json }),
          ...(init.body === undefined ? {} : { body: init.body, headers: { 'content-type': init.type! } }),
        });
      expect((await put('malformed JSON', { body: '{"body": ', type: 'application/json' })).status).toBe(400);
      expect((await put('text/plain', { body: 'body=x', type: 'text/plain' })).status).toBe(415);
      expect((await put('unknown member', { json: { bdy: 'typo' } })).status).toBe(422);
      await put('__proto__ member', { body: '{"__proto__": {"polluted": true}}', type: 'application/json' });
      await put('mistyped member', { json: { body: 42 } });
      await put('not an object', { json: ['body'] });
      expect((await put('template over 64 KiB', { json: { body: 'x'.repeat(65 * 1024) } })).status).toBe(413);
      expect((await s.send('template unchanged', TEMPLATE, { token: admin })).json().body).not.toBe(42);
    },
  },
  {
    name: 'a body over the 2 MiB cap of the shells: 413, nothing read past the cap',
    async run(s) {
      const admin = await s.token('admin');
      const json = { body: 'x'.repeat(3 * 1024 * 1024) };
      expect((await s.send('over the cap', TEMPLATE, { method: 'PUT', token: admin, json })).status).toBe(413);
    },
  },
];
