/**
 * RFC 9110 §13 on every method, in §13.2.2's order: If-Match, else If-Unmodified-Since (412); then If-None-Match
 * (304 for GET and HEAD, 412 for the others), else If-Modified-Since. Errors carry no validators.
 */
import { encodeBase64 } from '@storefront-platform/sdk/internal';
import { expect } from 'vitest';
import { BASE } from '../fixture.js';
import type { Reply, Session } from '../session.js';
import type { ContractCase } from './types.js';

const THEME = `${BASE}/themes/1`;
const TEMPLATE = `${BASE}/themes/1/templates/1`;
const LONG_AGO = 'Sat, 01 Jan 2000 00:00:00 GMT';
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>');

/** A 412 is an error: no `ETag` (it would not be the resource's) and no `Last-Modified`. */
function expectFailed(reply: Reply): void {
  expect(reply.status).toBe(412);
  expect(reply.headers.get('etag')).toBeNull();
  expect(reply.headers.get('last-modified')).toBeNull();
}

async function statusOf(s: Session, label: string, url: string, init: Parameters<Session['send']>[2]) {
  return (await s.send(label, url, init)).status;
}

export const preconditionCases: ContractCase[] = [
  {
    name: 'preconditions on GET and HEAD: If-Match and If-Unmodified-Since fail with 412 before If-None-Match is read',
    async run(s) {
      const token = await s.token('admin');
      const current = await s.send('theme', THEME, { token });
      const etag = current.headers.get('etag')!;
      const lastModified = current.headers.get('last-modified')!;
      const get = (label: string, headers: Record<string, string>, method = 'GET') =>
        s.send(label, THEME, { token, headers, method });
      expectFailed(await get('GET If-Match other', { 'if-match': '"nope"' }));
      expectFailed(await get('HEAD If-Match other', { 'if-match': '"nope"' }, 'HEAD'));
      expectFailed(await get('GET If-Match weak', { 'if-match': `W/${etag}` }));
      expect((await get('GET If-Match current', { 'if-match': etag })).status).toBe(200);
      expect((await get('GET If-Match *', { 'if-match': '*' })).status).toBe(200);
      expectFailed(await get('GET If-Unmodified-Since long ago', { 'if-unmodified-since': LONG_AGO }));
      expect((await get('GET If-Unmodified-Since now', { 'if-unmodified-since': lastModified })).status).toBe(200);
      // Step 1 before step 3: a failed If-Match is a 412 even where If-None-Match would give a 304.
      expectFailed(await get('If-Match fails, If-None-Match matches', { 'if-match': '"nope"', 'if-none-match': etag }));
      expect(
        (await get('If-Match holds, If-None-Match matches', { 'if-match': etag, 'if-none-match': etag })).status,
      ).toBe(304);
      // If-Unmodified-Since is not read when If-Match is there (§13.1.4).
      const both = { 'if-match': etag, 'if-unmodified-since': LONG_AGO };
      expect((await get('If-Match holds, If-Unmodified-Since ignored', both)).status).toBe(200);
      // Errors other than 412 come first (§13.2.1) and carry no validators either.
      const missing = await s.send('404 with If-Match', `${BASE}/themes/999`, { token, headers: { 'if-match': '*' } });
      expect([missing.status, missing.headers.get('etag'), missing.headers.get('last-modified')]).toEqual([
        404,
        null,
        null,
      ]);
    },
  },
  {
    name: 'preconditions on PUT and DELETE: If-None-Match * fails on an existing resource; nothing is written on a 412',
    async run(s) {
      const token = await s.token('admin');
      const theme = await s.send('theme', THEME, { token });
      const etag = theme.headers.get('etag')!;
      const put = (label: string, headers: Record<string, string>) =>
        s.send(label, THEME, { method: 'PUT', token, json: { title: label }, headers });
      expectFailed(await put('PUT If-None-Match * on an existing theme', { 'if-none-match': '*' }));
      expectFailed(await put('PUT If-None-Match current tag', { 'if-none-match': etag }));
      expectFailed(await put('PUT If-Unmodified-Since long ago', { 'if-unmodified-since': LONG_AGO }));
      // Nothing of the refused writes happened: the theme still has its tag.
      expect((await s.send('theme unchanged', THEME, { token })).headers.get('etag')).toBe(etag);
      expect(
        await statusOf(s, 'PUT If-None-Match other tag', THEME, {
          method: 'PUT',
          token,
          json: { title: 'Renamed' },
          headers: { 'if-none-match': '"other"', 'if-match': etag },
        }),
      ).toBe(200);

      const del = { method: 'DELETE', token };
      expectFailed(
        await s.send('DELETE If-None-Match *', TEMPLATE.replace(/1$/, '2'), {
          ...del,
          headers: { 'if-none-match': '*' },
        }),
      );
      expectFailed(
        await s.send('DELETE If-Unmodified-Since long ago', TEMPLATE.replace(/1$/, '2'), {
          ...del,
          headers: { 'if-unmodified-since': LONG_AGO },
        }),
      );
    },
  },
  {
    name: 'preconditions on the POSTs that create or replace by name: checked against what the name holds',
    async run(s) {
      const token = await s.token('admin');
      const post = (label: string, url: string, json: object | undefined, headers: Record<string, string>) =>
        s.send(label, url, { method: 'POST', token, json, headers });
      const template = (body: string) => ({ file_name: 'snippets/inm.html', body });
      const templates = `${THEME}/templates`;
      // No template of that name yet: If-Match (`*` included) fails, If-None-Match * holds.
      expectFailed(await post('template If-Match * on a new name', templates, template('a'), { 'if-match': '*' }));
      const created = await post('template create only', templates, template('first'), { 'if-none-match': '*' });
      expect(created.status).toBe(201);
      const etag = created.headers.get('etag')!;
      // Now the name holds a template: create only fails, and nothing is written.
      expectFailed(await post('template create only again', templates, template('x'), { 'if-none-match': '*' }));
      expectFailed(await post('template old tag', templates, template('x'), { 'if-match': '"old"' }));
      const longAgo = { 'if-unmodified-since': LONG_AGO };
      expectFailed(await post('template If-Unmodified-Since long ago', templates, template('x'), longAgo));
      const unchanged = await s.send('template unchanged', created.json()._links.self.href, { token });
      expect([unchanged.json().body, unchanged.headers.get('etag')]).toEqual(['first', etag]);
      expect((await post('template current tag', templates, template('second'), { 'if-match': etag })).status).toBe(
        200,
      );
      expect((await post('template If-Match *', templates, template('third'), { 'if-match': '*' })).status).toBe(200);

      // An asset's validators are its file's (what its deletion checks): the quoted digest.
      const assets = `${THEME}/assets`;
      const asset = { file_name: 'inm.svg', data: encodeBase64(SVG) };
      expectFailed(await post('asset If-Match * on a new name', assets, asset, { 'if-match': '*' }));
      const uploaded = await post('asset create only', assets, asset, { 'if-none-match': '*' });
      expect(uploaded.status).toBe(201);
      expectFailed(await post('asset create only again', assets, asset, { 'if-none-match': '*' }));
      expectFailed(await post('asset If-Unmodified-Since long ago', assets, asset, longAgo));
      const digest = `"${uploaded.json().digest}"`;
      expect((await post('asset current digest', assets, asset, { 'if-match': digest })).status).toBe(200);

      // The shop's development theme: created once, then answered as it is.
      const themes = `${BASE}/shops/1/themes`;
      expectFailed(await post('dev theme If-Match * before it exists', themes, undefined, { 'if-match': '*' }));
      expect((await post('dev theme create only', themes, undefined, { 'if-none-match': '*' })).status).toBe(201);
      expectFailed(await post('dev theme create only again', themes, undefined, { 'if-none-match': '*' }));
      expect((await post('dev theme If-Match *', themes, undefined, { 'if-match': '*' })).status).toBe(200);
    },
  },
];
