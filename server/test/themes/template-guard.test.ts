/**
 * The lost-update guard of template writes on a clock the test moves by hand, through the reference server and
 * through the MSW handlers (one core, so one behaviour): `last_updated_on` to the millisecond compared exactly,
 * epoch seconds taken only when that second saw one version, `If-Match` compared strongly.
 */
import { createHandlers } from '@storefront-platform/server/msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Doc, startThemeServer, type ThemeServer } from './fixture.js';

/** Noon and 100 ms, 2026-01-10: far from a second's edges, so that the tests say which second a write lands in. */
const START = Date.UTC(2026, 0, 10, 12, 0, 0, 100);
let now = START;
const clock = { now: () => now };

/** Sends a request to the API with an admin token; `json` becomes the body. */
type Send = (
  path: string,
  init?: { method?: string; json?: unknown; headers?: Record<string, string> },
) => Promise<Response>;

interface Target {
  name: string;
  start(): Promise<{ send: Send; stop(): Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'reference server',
    async start() {
      const t: ThemeServer = await startThemeServer({ clock });
      return { send: (path, init = {}) => t.call(path, init), stop: () => t.server.close() };
    },
  },
  {
    name: 'MSW handlers',
    async start() {
      const mock = createHandlers({ clock, seed: { products: 6, orders: 2 } });
      const server = setupServer(...mock.handlers);
      server.listen({ onUnhandledRequest: 'bypass' });
      const token = (await mock.issueToken({ scope: 'admin' })).accessToken;
      const send: Send = (path, { json, ...init } = {}) => {
        const headers = new Headers(init.headers);
        headers.set('authorization', `Bearer ${token}`);
        if (json !== undefined) headers.set('content-type', 'application/json');
        return fetch(`${mock.baseUrl}${path}`, {
          ...init,
          headers,
          body: json === undefined ? null : JSON.stringify(json),
        });
      };
      return { send, stop: async () => server.close() };
    },
  },
];

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe.each(targets)('template lost-update guard ($name)', (target) => {
  let send: Send;
  let stop: () => Promise<void>;
  let names = 0;

  beforeAll(async () => {
    ({ send, stop } = await target.start());
  });
  afterAll(() => stop());
  beforeEach(() => {
    now = START;
  });

  async function json(
    path: string,
    init: Parameters<Send>[1] = {},
  ): Promise<{ status: number; doc: Doc; etag: string }> {
    const response = await send(path, init);
    const text = await response.text();
    return { status: response.status, doc: text ? (JSON.parse(text) as Doc) : {}, etag: response.headers.get('etag')! };
  }

  /** A new template of theme 1, created at the clock's time; its URL and representation. */
  async function created(body = 'first'): Promise<{ url: string; doc: Doc; etag: string }> {
    const file_name = `guard/t${++names}.html`;
    const { status, doc, etag } = await json('/themes/1/templates', { method: 'POST', json: { file_name, body } });
    expect(status).toBe(201);
    return { url: `/themes/1/templates/${doc.id}`, doc, etag };
  }

  const put = (url: string, body: string, last_updated_on?: string | number, headers?: Record<string, string>) =>
    json(url, { method: 'PUT', json: last_updated_on === undefined ? { body } : { body, last_updated_on }, headers });

  const bodyOf = async (url: string) => (await json(url)).doc.body as string;

  it('compares an updated_on sent to the millisecond exactly', async () => {
    const { url, doc } = await created();
    now += 200;
    const other = await put(url, 'theirs');
    expect(other.status).toBe(200);
    now += 1;
    const mine = await put(url, 'mine', doc.updated_on);
    expect(mine.status).toBe(422);
    expect(mine.doc._embedded.errors[0].field).toBe('updated_on');
    expect(await bodyOf(url)).toBe('theirs');
    const again = await put(url, 'mine', other.doc.updated_on);
    expect([again.status, again.doc.body]).toEqual([200, 'mine']);
  });

  it('tells apart two writes in one millisecond', async () => {
    const { url, doc } = await created();
    const first = await put(url, 'a');
    const second = await put(url, 'b');
    expect(new Set([doc.updated_on, first.doc.updated_on, second.doc.updated_on]).size).toBe(3);
    expect(new Set([first.etag, second.etag]).size).toBe(2);
    expect((await put(url, 'c', first.doc.updated_on)).status).toBe(422);
    expect((await put(url, 'c', undefined, { 'if-match': first.etag })).status).toBe(412);
    expect(await bodyOf(url)).toBe('b');
  });

  it('refuses epoch seconds naming a second in which the template changed twice', async () => {
    const { url, doc } = await created();
    now += 300;
    expect((await put(url, 'theirs')).status).toBe(200);
    now += 1000;
    const stale = await put(url, 'mine', seconds(doc.updated_on));
    expect(stale.status).toBe(422);
    expect(stale.doc._embedded.errors[0]).toMatchObject({ field: 'updated_on' });
    expect(stale.doc._embedded.errors[0].messages[0]).toMatch(/more than once within second/);
    expect(await bodyOf(url)).toBe('theirs');
  });

  it('refuses them through the upsert by file name alike', async () => {
    const { url, doc } = await created();
    now += 300;
    expect((await put(url, 'theirs')).status).toBe(200);
    const upsert = await json('/themes/1/templates', {
      method: 'POST',
      json: { file_name: doc.file_name, body: 'mine', last_updated_on: seconds(doc.updated_on) },
    });
    expect(upsert.status).toBe(422);
    expect(await bodyOf(url)).toBe('theirs');
  });

  it('accepts epoch seconds when that second saw one version (older clients)', async () => {
    const { url, doc } = await created();
    now += 2000;
    const one = await put(url, 'second write', seconds(doc.updated_on));
    expect(one.status).toBe(200);
    now += 2000;
    const two = await put(url, 'third write', seconds(one.doc.updated_on));
    expect([two.status, two.doc.body]).toEqual([200, 'third write']);
    // Seconds of an earlier version are stale as before.
    expect((await put(url, 'late', seconds(doc.updated_on))).status).toBe(422);
  });

  it('evaluates If-Match strongly: the ETag seen passes, an older or weak one is a 412 and nothing changes', async () => {
    const { url, etag } = await created();
    const current = (await json(url)).etag;
    expect(current).toBe(etag);
    const ok = await put(url, 'mine', undefined, { 'if-match': etag });
    expect(ok.status).toBe(200);
    expect((await put(url, 'late', undefined, { 'if-match': etag })).status).toBe(412);
    expect((await put(url, 'weak', undefined, { 'if-match': `W/${ok.etag}` })).status).toBe(412);
    expect(await bodyOf(url)).toBe('mine');
    expect((await json(url, { method: 'DELETE', headers: { 'if-match': etag } })).status).toBe(412);
    expect((await json(url, { method: 'DELETE', headers: { 'if-match': ok.etag } })).status).toBe(204);
  });

  it('refuses a last_updated_on string that is not an updated_on (422 on the field)', async () => {
    const { url, doc } = await created();
    for (const bad of ['1', 'yesterday', doc.updated_on.replace(/\.\d{3}Z$/, 'Z'), '2026-13-40T99:00:00.000Z']) {
      const answer = await put(url, 'x', bad);
      expect(answer.status, bad).toBe(422);
      expect(answer.doc._embedded.errors[0].field).toBe('last_updated_on');
    }
    expect(await bodyOf(url)).toBe('first');
  });
});
