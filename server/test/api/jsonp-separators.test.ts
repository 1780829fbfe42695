/**
 * JSONP and the two characters JSON allows raw in strings but older JavaScript engines end a line at:
 * U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR. A script body must carry them escaped.
 */
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { wrapJsonp } from '../../src/http/jsonp.js';
import { type SeededCore, seededCore } from '../helpers/seeded-core.js';

const origin = 'https://api.example';
const SEPARATED = 'line\u2028separator\u2029paragraph';

describe('wrapJsonp', () => {
  it('escapes U+2028 and U+2029, so that the script is one statement in any engine', () => {
    const json = JSON.stringify({ text: SEPARATED });
    const script = wrapJsonp('cb', json);
    expect(script).not.toMatch(/[\u2028\u2029]/);
    expect(script).toBe('/**/cb({"text":"line\\u2028separator\\u2029paragraph"});');
    let received: unknown;
    runInNewContext(script, { cb: (value: unknown) => (received = value) });
    expect(received).toEqual({ text: SEPARATED });
  });
});

describe('a .jsonp response of a resource holding them', () => {
  let core: SeededCore['core'];
  let token: string;
  beforeAll(async () => {
    ({ core, token } = await seededCore(origin));
  });

  it('carries them escaped, and the JSON form raw', async () => {
    const call = (path: string, init: RequestInit = {}) =>
      core.fetch(
        new Request(path.startsWith('http') ? path : `${origin}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        }),
      );
    const theme = await (await call('/v1/shops/1/theme.json')).json();
    const template = theme._embedded.templates[1]._links.self.href as string;
    const put = await call(template, { method: 'PUT', body: JSON.stringify({ body: SEPARATED }) });
    expect(put.status).toBe(200);

    expect(await (await call(`${template}.json`)).text()).toContain(SEPARATED);
    const script = await (await call(`${template}.jsonp?callback=app.cb`)).text();
    expect(script).not.toMatch(/[\u2028\u2029]/);
    let received: { body?: string } = {};
    runInNewContext(script, { app: { cb: (value: typeof received) => (received = value) } });
    expect(received.body).toBe(SEPARATED);
  });
});
