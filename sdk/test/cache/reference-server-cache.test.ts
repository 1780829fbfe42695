import {
  type CacheEntry,
  type Client,
  clientCredentials,
  createClient,
  createHttpCache,
  type HttpCache,
  PreconditionFailedError,
  type Template,
  type Theme,
} from '@storefront-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingFetch } from '../../../test/support/recording-fetch.js';
import { type ReferenceServer, startReferenceServer } from '../helpers/reference-server.js';

let h: ReferenceServer;
beforeAll(async () => {
  h = await startReferenceServer();
});
afterAll(() => h.server.close());

function client(options: { cache?: HttpCache; scope?: 'admin' | 'public' } = {}) {
  const recorder = recordingFetch();
  const { clientId, clientSecret } = h.credentials;
  const auth = clientCredentials({
    authUrl: h.server.origin,
    clientId,
    clientSecret,
    scope: options.scope ?? 'admin',
    fetch: recorder.fetch,
    now: h.clock.now,
  });
  const sdk = createClient({
    baseUrl: h.server.baseUrl,
    auth,
    cache: options.cache,
    fetch: recorder.fetch,
  });
  return { sdk, recorder };
}

async function firstTheme(sdk: Client): Promise<Theme> {
  const summary = (await sdk.root()).embedded('shops')[0]!;
  const shop = await summary.follow('self');
  return (await (shop as unknown as { follow(rel: 'svc:theme'): Promise<Theme> }).follow('svc:theme')) as Theme;
}

async function firstTemplate(sdk: Client, fileName = 'layout.html'): Promise<Template> {
  const theme = await firstTheme(sdk);
  const summary = theme.embedded('templates').find((t) => t.properties.file_name === fileName)!;
  return summary.follow('self');
}

describe('HTTP cache through the client, against the reference server', () => {
  it('revalidates a stored GET: both validators sent, a 304 with no body, the caller sees the 200 data', async () => {
    const { sdk, recorder } = client({ cache: createHttpCache() });
    const first = await firstTemplate(sdk);
    const templateUrl = first.response!.url;
    const second = await firstTemplate(sdk);

    const gets = recorder.apiRequests().filter((e) => e.url === templateUrl);
    expect(gets.map((e) => e.status)).toEqual([200, 304]);
    expect(gets[0]?.headers.get('if-none-match')).toBeNull();
    expect(gets[1]?.headers.get('if-none-match')).toBe(first.response!.headers.get('etag'));
    expect(gets[1]?.headers.get('if-modified-since')).toBe(first.response!.headers.get('last-modified'));
    expect(gets[1]?.bodyBytes).toBe(0);
    expect(second.response).toMatchObject({ status: 200, revalidated: true });
    expect(second.properties).toEqual(first.properties);
    // Everything on the way (root, shop, theme) was revalidated too.
    const statuses = recorder.apiRequests().map((e) => e.status);
    expect(statuses).toEqual([200, 200, 200, 200, 304, 304, 304, 304]);
  });

  it('never shares entries between owners, even through one cache', async () => {
    const cache = createHttpCache();
    const admin = client({ cache, scope: 'admin' });
    const visitor = client({ cache, scope: 'public' });
    const adminRoot = await admin.sdk.root();
    const visitorRoot = await visitor.sdk.root();
    expect(adminRoot.properties.scopes).toBe('admin');
    expect(visitorRoot.properties.scopes).toBe('public');
    const [visitorGet] = visitor.recorder.apiRequests();
    expect(visitorGet?.headers.get('if-none-match')).toBeNull();
    expect(visitorGet?.status).toBe(200);
    // Each owner then revalidates its own copy.
    await admin.sdk.root();
    await visitor.sdk.root();
    expect(admin.recorder.apiRequests().map((e) => e.status)).toEqual([200, 304]);
    expect(visitor.recorder.apiRequests().map((e) => e.status)).toEqual([200, 304]);
  });

  it('a write drops the copies it touched: the template, its theme and the shop’s theme.json', async () => {
    const { sdk, recorder } = client({ cache: createHttpCache() });
    const template = await firstTemplate(sdk, 'styles/theme.css');
    const body = `/* changed ${Date.now()} */\n${template.properties.body}`;
    await template.follow('svc:update_template', { body });

    const theme = await firstTheme(sdk);
    const themeGet = recorder.apiRequests().at(-1)!;
    expect(themeGet.url).toMatch(/\/theme\.json$/);
    expect(themeGet.headers.get('if-none-match')).toBeNull();
    expect(themeGet.status).toBe(200);
    expect(
      theme.embedded('templates').find((t) => t.properties.file_name === 'styles/theme.css')?.properties.body,
    ).toBe(body);
    const again = await template.follow('self');
    expect(recorder.apiRequests().at(-1)?.headers.get('if-none-match')).toBeNull();
    expect(again.properties.body).toBe(body);
  });

  it('sees a change made within the same second as its copy (the ETag decides, not Last-Modified)', async () => {
    const cached = client({ cache: createHttpCache() });
    const writer = client();
    const target = await firstTemplate(writer.sdk, 'scripts/app.js');
    // Two writes in the same clock instant: the second leaves Last-Modified where the first put it.
    await target.follow('svc:update_template', { body: 'console.log("one");' });
    const before = await firstTemplate(cached.sdk, 'scripts/app.js');
    expect(before.properties.body).toBe('console.log("one");');
    await target.follow('svc:update_template', { body: 'console.log("two");' });

    const after = await firstTemplate(cached.sdk, 'scripts/app.js');
    const last = cached.recorder.apiRequests().at(-1)!;
    expect(last.headers.get('if-modified-since')).toBe(before.response!.headers.get('last-modified'));
    expect(last.headers.get('if-none-match')).toBe(before.response!.headers.get('etag'));
    expect(last.status).toBe(200);
    // The change lies within the same second as the copy (the server's clock stands still in this file).
    const second = (iso: string) => Math.floor(Date.parse(iso) / 1000);
    expect(second(after.properties.updated_on)).toBe(second(before.properties.updated_on));
    expect(after.properties.updated_on).not.toBe(before.properties.updated_on);
    expect(after.response?.revalidated).toBe(false);
    expect(after.properties.body).toBe('console.log("two");');
  });

  it('with ifMatch, a write based on a stale copy is refused with a typed 412 and changes nothing', async () => {
    const { sdk, recorder } = client({ cache: createHttpCache() });
    const writer = client();
    const stale = await firstTemplate(sdk, 'scripts/cart.js');
    const fresh = await firstTemplate(writer.sdk, 'scripts/cart.js');
    await fresh.follow('svc:update_template', { body: 'console.log("theirs");' });

    const error = await stale
      .follow('svc:update_template', { body: 'console.log("mine");' }, { ifMatch: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreconditionFailedError);
    expect((error as PreconditionFailedError).status).toBe(412);
    const put = recorder.apiRequests().at(-1)!;
    expect(put.method).toBe('PUT');
    expect(put.headers.get('if-match')).toBe(stale.response!.headers.get('etag'));
    expect((await fresh.follow('self')).properties.body).toBe('console.log("theirs");');

    // With the copy refreshed, the same write goes through.
    const current = await stale.follow('self');
    await expect(
      current.follow('svc:update_template', { body: 'console.log("mine");' }, { ifMatch: true }),
    ).resolves.toMatchObject({ properties: { body: 'console.log("mine");' } });
    expect((await fresh.follow('self')).properties.body).toBe('console.log("mine");');
  });

  it('after a 412 to a guarded write, a read of the theme embedding the template shows the other write', async () => {
    const { sdk, recorder } = client({ cache: createHttpCache() });
    const writer = client();
    await firstTheme(sdk);
    const stale = await firstTemplate(sdk, 'scripts/cart.js');
    const fresh = await firstTemplate(writer.sdk, 'scripts/cart.js');
    await fresh.follow('svc:update_template', { body: 'console.log("theirs, 412");' });

    await expect(stale.follow('svc:update_template', { body: 'x' }, { ifMatch: true })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    // The stored theme is revalidated (max-age=0): its ETag no longer holds, so the server sends the new one.
    const theme = await firstTheme(sdk);
    const read = recorder.apiRequests().at(-1)!;
    expect([read.headers.get('if-none-match') !== null, read.status]).toEqual([true, 200]);
    const embedded = theme.embedded('templates').find((t) => t.properties.file_name === 'scripts/cart.js');
    expect(embedded?.properties.body).toBe('console.log("theirs, 412");');
  });

  it('works over a custom async store (the Redis shape): entries are plain JSON, not written again by a 304', async () => {
    const map = new Map<string, string>();
    let writes = 0;
    const store = {
      get: async (key: string) => (map.has(key) ? (JSON.parse(map.get(key)!) as CacheEntry) : undefined),
      set: async (key: string, entry: CacheEntry) => {
        writes++;
        map.set(key, JSON.stringify(entry));
      },
      delete: async (key: string) => void map.delete(key),
    };
    const { sdk, recorder } = client({ cache: createHttpCache({ store }) });
    await firstTheme(sdk);
    await firstTheme(sdk);
    expect(map.size).toBe(3);
    // Each 304 brings its own X-Request-Id: that alone moves no entry back into the store.
    expect(writes).toBe(3);
    expect([...map.keys()].every((key) => key.startsWith('client%3A'))).toBe(true);
    expect(recorder.apiRequests().map((e) => e.status)).toEqual([200, 200, 200, 304, 304, 304]);
  });
});
