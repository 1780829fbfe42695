/**
 * A list's `Last-Modified` moves whenever its representation changes (its counts and links too, not only the
 * items shown): an `If-Modified-Since` alone must not get a 304 for a list that changed since, whichever page, after
 * an addition, a deletion or a member leaving the filter, also from a core that never built that list before (a
 * restarted cache, another worker), and within the second of the date it names (RFC 9110 §8.8.2.2).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { type ManualClock, manualClock } from '../../../test/support/manual-clock.js';
import { type Core, createCore } from '../../src/core/index.js';
import type { CoreContext } from '../../src/core/types.js';
import { issueToken } from '../../src/oauth/index.js';
import { seed } from '../../src/seed/index.js';
import { createMemoryStore } from '../../src/store/index.js';

const ORIGIN = 'https://api.example';
/** 200 ms into a second, so that a few quick writes stay within it. */
const START = Date.UTC(2026, 10, 21, 9, 30, 0) + 200;

let clock: ManualClock;
let context: CoreContext;
let core: Core;
let token: string;

beforeEach(async () => {
  clock = manualClock(START);
  context = {
    store: createMemoryStore(seed({ products: 6, orders: 2 }).dataset),
    clock,
    addresses: { origin: ORIGIN, baseUrl: `${ORIGIN}/v1`, authUrl: ORIGIN, staticUrl: `${ORIGIN}/static` },
    tokenTtl: 3600,
  };
  core = createCore(context);
  ({ token } = await issueToken(context, { appId: '1', userId: '1', scopes: ['admin'] }));
});

function call(path: string, init: RequestInit = {}, by: Core = core): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return by.fetch(new Request(path.startsWith('http') ? path : `${ORIGIN}/v1${path}`, { ...init, headers }));
}

const post = (path: string, json: unknown) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
const createTemplate = (name: string) =>
  post('/themes/1/templates', { file_name: `snippets/${name}.html`, body: name });
const since = (date: string) => ({ headers: { 'if-modified-since': date } });

describe("a list's Last-Modified", () => {
  it('moves on the first page of the event list when an event is added past it', async () => {
    await createTemplate('earlier');
    const before = await call('/events.json?per_page=1');
    const date = before.headers.get('last-modified')!;
    const { total_items } = await before.json();
    clock.advance(60_000);
    expect((await createTemplate('later')).status).toBe(201);
    const after = await call('/events.json?per_page=1', since(date));
    expect(after.status).toBe(200);
    expect((await after.json()).total_items).toBe(total_items + 1);
  });

  it('answers 200 to If-Modified-Since of the second in which the list changed again', async () => {
    const paths = ['/events.json', '/events.json?per_page=1', '/webhook_endpoints.json'];
    clock.advance(60_000);
    await createTemplate('first');
    await post('/webhook_endpoints', { url: 'http://127.0.0.1:9/first' });
    const dates: string[] = [];
    for (const path of paths) {
      dates.push((await call(path)).headers.get('last-modified')!);
      expect((await call(path, since(dates.at(-1)!))).status).toBe(304);
    }
    clock.advance(300);
    await createTemplate('second');
    await post('/webhook_endpoints', { url: 'http://127.0.0.1:9/second' });
    for (const [i, path] of paths.entries()) {
      const current = await call(path);
      expect(current.headers.get('last-modified')).toBe(dates[i]);
      expect((await call(path, since(dates[i]!))).status).toBe(200);
      // The entity tag tells the versions apart.
      expect((await call(path, { headers: { 'if-none-match': current.headers.get('etag')! } })).status).toBe(304);
    }
  });

  it('moves after a deletion, also where another core answers', async () => {
    const created = [];
    for (const name of ['a', 'b']) {
      clock.advance(60_000);
      const response = await post('/webhook_endpoints', { url: `http://127.0.0.1:9/${name}` });
      created.push(((await response.json()) as { id: string }).id);
    }
    const date = (await call('/webhook_endpoints.json')).headers.get('last-modified')!;
    expect((await call('/webhook_endpoints.json', since(date))).status).toBe(304);
    clock.advance(60_000);
    expect((await call(`/webhook_endpoints/${created[1]}`, { method: 'DELETE' })).status).toBe(204);
    for (const by of [core, createCore(context)]) {
      expect((await call('/webhook_endpoints.json', since(date), by)).status).toBe(200);
    }
  });

  it('moves when a member leaves the filter, also where another core answers', async () => {
    const path = '/products.json?status=visible&sort=updated_on.desc';
    const first = await call(path);
    const date = first.headers.get('last-modified')!;
    const newest = ((await first.json()) as { _embedded: { items: { id: string }[] } })._embedded.items[0]!;
    clock.advance(60_000);
    const hidden = new Date(clock.now()).toISOString();
    await context.store.write((tx) => tx.update('products', newest.id, { status: 'hidden', updated_on: hidden }));
    clock.advance(60_000);
    for (const by of [core, createCore(context)]) expect((await call(path, since(date), by)).status).toBe(200);
  });
});
