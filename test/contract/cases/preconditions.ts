/**
 * RFC 9110 §13 on every method, in §13.2.2's order: If-Match, else If-Unmodified-Since (412); then If-None-Match
 * (304 for GET and HEAD, 412 for the others), else If-Modified-Since. Errors carry no validators.
 */
import { expect } from 'vitest';
import { BASE } from '../fixture.js';
import type { Reply, Session } from '../session.js';
import type { ContractCase } from './types.js';

const THEME = `${BASE}/themes/1`;
const TEMPLATE = `${BASE}/themes/1/templates/1`;
const LONG_AGO = 'Sat, 01 Jan 2000 00:00:00 GMT';

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
    name: 'preconditions on PUT, DELETE and POST: If-None-Match * means create only; nothing is written on a 412',
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

      // A POST's target (the theme's templates) has no representation of its own: If-Match fails, `*` included,
      // and If-None-Match * holds.
      const create = (label: string, headers: Record<string, string>, file_name: string) =>
        s.send(label, `${THEME}/templates`, { method: 'POST', token, json: { file_name, body: '<p>x</p>' }, headers });
      expectFailed(await create('POST If-Match *', { 'if-match': '*' }, 'snippets/a.html'));
      expect((await create('POST If-None-Match *', { 'if-none-match': '*' }, 'snippets/b.html')).status).toBe(201);
    },
  },
];
