/** Defences against bad clients: throttled failed logins, encoded request bodies, JSONP's line separators. */
import { gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { BASE, clock, DEMO, REDIRECT_URI } from '../fixture.js';
import type { ContractCase } from './types.js';

const TEMPLATE = `${BASE}/themes/1/templates/1`;

const authorizeForm = (password: string) => ({
  response_type: 'code',
  client_id: DEMO.clientId,
  redirect_uri: REDIRECT_URI,
  scope: 'public',
  state: 'st',
  // The demo app is a native app: a public client, which must use PKCE (RFC 9700 §2.1.1).
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  login: DEMO.login,
  password,
  decision: 'approve',
});

export const securityCases: ContractCase[] = [
  {
    name: 'failed logins: throttled after five, 429 with Retry-After on the token endpoint and the page, until it passes',
    async run(s) {
      const guess = (i: number) =>
        s.send(`wrong password ${i}`, '/oauth/token', {
          basic: true,
          form: { grant_type: 'password', username: DEMO.login, password: `guess ${i}` },
        });
      for (let i = 1; i <= 5; i++) expect((await guess(i)).status).toBe(400);
      const throttled = await guess(6);
      expect(throttled.status).toBe(429);
      expect(throttled.json().error).toBe('slow_down');
      const page = await s.send('right password on the form, throttled', '/oauth/authorize', {
        form: authorizeForm(DEMO.password),
      });
      expect(page.status).toBe(429);
      clock.advance(1000);
      const right = await s.send('right password once the wait passed', '/oauth/token', {
        basic: true,
        form: { grant_type: 'password', username: DEMO.login, password: DEMO.password },
      });
      expect(right.status).toBe(200);
    },
  },
  {
    name: 'request bodies with a Content-Encoding: 415 on the API, the token endpoint and the form',
    async run(s) {
      const admin = await s.token('admin');
      const gzip = { 'content-encoding': 'gzip' };
      const api = await s.send('gzipped JSON', TEMPLATE, {
        method: 'PUT',
        token: admin,
        headers: { ...gzip, 'content-type': 'application/json' },
        body: gzipSync(JSON.stringify({ body: 'x' })),
      });
      expect(api.status).toBe(415);
      await s.send('gzipped token request', '/oauth/token', {
        basic: true,
        headers: { ...gzip, 'content-type': 'application/x-www-form-urlencoded' },
        body: gzipSync('grant_type=client_credentials'),
      });
      await s.send('gzipped form', '/oauth/authorize', {
        headers: { ...gzip, 'content-type': 'application/x-www-form-urlencoded' },
        body: gzipSync(new URLSearchParams(authorizeForm(DEMO.password)).toString()),
      });
      await s.send('identity is no coding', TEMPLATE, {
        method: 'PUT',
        token: admin,
        headers: { 'content-encoding': 'identity' },
        json: { body: 'plain' },
      });
    },
  },
  {
    name: 'JSONP: U+2028 and U+2029 escaped in the script',
    async run(s) {
      const admin = await s.token('admin');
      await s.send('template with separators', TEMPLATE, {
        method: 'PUT',
        token: admin,
        json: { body: 'a\u2028b\u2029c' },
      });
      const script = await s.send('as JSONP', `${TEMPLATE}.jsonp?callback=cb`, { token: admin });
      expect(script.text).toContain('a\\u2028b\\u2029c');
    },
  },
];
