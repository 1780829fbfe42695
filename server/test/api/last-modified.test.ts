/**
 * `Last-Modified` against `Date` over real HTTP, with a clock that stands still unless told: quick writes must
 * not push `Last-Modified` past `Date` (RFC 9110 §8.8.2.1), and two changes within one second must not let
 * `If-Modified-Since` of that second answer 304 (§8.8.2.2: such a date is then a weak validator).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ManualClock, manualClock } from '../../../test/support/manual-clock.js';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { parseHttpDate } from '../../src/http/http-date.js';
import { clientToken } from '../helpers/test-server.js';

/** 200 ms into a second, so that a few quick writes stay within it. */
const START = Date.UTC(2026, 10, 21, 9, 30, 0) + 200;

let server: StorefrontServer;
let clock: ManualClock;
let token: string;

beforeEach(async () => {
  clock = manualClock(START);
  server = await createServer({ port: 0, products: 6, clock });
  token = await clientToken(server);
});
afterEach(() => server.close());

function call(url: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(url.startsWith('http') ? url : `${server.baseUrl}${url}`, { ...init, headers });
}

const THEME = '/shops/1/theme.json';

async function templateUrl(): Promise<string> {
  const theme = (await (await call(THEME)).json()) as {
    _embedded: { templates: { _links: { self: { href: string } } }[] };
  };
  return theme._embedded.templates[0]!._links.self.href;
}

function putBody(url: string, body: string): Promise<Response> {
  return call(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ body }) });
}

function lastModifiedOf(response: Response): string {
  return response.headers.get('last-modified')!;
}

function dates(response: Response): { lastModified: number; date: number } {
  const lastModified = parseHttpDate(response.headers.get('last-modified') ?? '');
  const date = parseHttpDate(response.headers.get('date') ?? '');
  expect(lastModified, 'Last-Modified').toBeTypeOf('number');
  expect(date, 'Date').toBeTypeOf('number');
  return { lastModified: lastModified!, date: date! };
}

describe('Last-Modified and Date', () => {
  it('sends Date from the server clock', async () => {
    expect(dates(await call(THEME)).date).toBe(Math.floor(START / 1000) * 1000);
  });

  it('keeps Last-Modified at or before Date through quick writes, read after each or not', async () => {
    const template = await templateUrl();
    for (let i = 0; i < 5; i++) {
      const written = await putBody(template, `<p>write ${i}</p>`);
      expect(written.status).toBe(200);
      for (const response of [written, await call(template), await call(THEME)]) {
        const { lastModified, date } = dates(response);
        expect(lastModified).toBeLessThanOrEqual(date);
        expect(lastModified).toBeLessThanOrEqual(clock.now());
      }
    }
    for (let i = 0; i < 5; i++) await putBody(template, `<p>unread write ${i}</p>`);
    for (const url of [template, THEME]) {
      const { lastModified, date } = dates(await call(url));
      expect(lastModified).toBeLessThanOrEqual(date);
      expect(lastModified).toBeLessThanOrEqual(clock.now());
    }
  });

  it('answers 200 to If-Modified-Since of a second in which the resource changed twice', async () => {
    const template = await templateUrl();
    clock.advance(60_000);
    await putBody(template, '<p>first</p>');
    // The theme embeds the template: its date is just as ambiguous once both versions were sent.
    const since = { template: lastModifiedOf(await call(template)), theme: lastModifiedOf(await call(THEME)) };
    expect((await call(template, { headers: { 'if-modified-since': since.template } })).status).toBe(304);
    expect((await call(THEME, { headers: { 'if-modified-since': since.theme } })).status).toBe(304);

    clock.advance(300);
    await putBody(template, '<p>second, within the same second</p>');
    const current = await call(template);
    expect(lastModifiedOf(current)).toBe(since.template);
    expect((await call(template, { headers: { 'if-modified-since': since.template } })).status).toBe(200);
    expect((await call(THEME, { headers: { 'if-modified-since': since.theme } })).status).toBe(200);
    // Entity tags tell the versions apart whatever the second.
    const etag = current.headers.get('etag')!;
    const both = { 'if-none-match': etag, 'if-modified-since': since.template };
    expect((await call(template, { headers: both })).status).toBe(304);
    const unmodified = { 'content-type': 'application/json', 'if-unmodified-since': since.template };
    expect((await call(template, { method: 'PUT', headers: unmodified, body: '{}' })).status).toBe(412);
  });

  it('answers 304 again once a change lands alone in a later second', async () => {
    const template = await templateUrl();
    clock.advance(60_000);
    await putBody(template, '<p>first</p>');
    await call(template);
    clock.advance(300);
    await putBody(template, '<p>second</p>');
    await call(template);

    clock.advance(2_000);
    await putBody(template, '<p>third, alone in its second</p>');
    const since = lastModifiedOf(await call(template));
    expect(parseHttpDate(since)).toBe(Math.floor(clock.now() / 1000) * 1000);
    clock.advance(5_000);
    expect((await call(template, { headers: { 'if-modified-since': since } })).status).toBe(304);
  });
});
