import {
  type AuthStrategy,
  type Client,
  type ClientEvents,
  type Credentials,
  createHttpCache,
  type Entity,
  type HttpCache,
  InvalidResponseError,
  PreconditionFailedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { fakeFetch, json, type Route } from './helpers/fake-fetch.js';
import { createClient } from './helpers/user-ky.js';

const base = 'http://api.test/v1/';
const rootDoc = {
  _class: ['root'],
  _links: {
    self: { href: base },
    'svc:shop': { href: 'shops/{id}', templated: true },
    'svc:update': { href: 'things/1', method: 'put' },
    'svc:create': { href: 'things', method: 'post' },
    'svc:remove': { href: 'things/1', method: 'delete' },
    'svc:thing': { href: 'things/1' },
  },
};

/** ky's `delay` of a backoff from `ms`, doubling. */
const backoff = (ms: number) => (retry: number) => ms * 2 ** (retry - 1);

function statuses(...sequence: (number | 'network' | Route)[]): Route {
  let call = 0;
  return (request) => {
    const next = sequence[Math.min(call++, sequence.length - 1)]!;
    if (next === 'network') throw new TypeError('fetch failed');
    if (typeof next === 'function') return next(request);
    return next === 200
      ? json({ _class: ['thing'], _links: {}, id: '1' })
      : json({ _class: ['errors'], message: 'x' }, { status: next });
  };
}

function recordEvents() {
  const seen: { name: keyof ClientEvents; event: unknown }[] = [];
  const on = Object.fromEntries(
    (
      [
        'request',
        'response',
        'cache:hit',
        'cache:revalidated',
        'cache:stored',
        'cache:invalidated',
        'token:refreshed',
        'retry',
      ] as const
    ).map((name) => [name, (event: unknown) => seen.push({ name, event })]),
  );
  return { seen, on, names: () => seen.map((s) => s.name) };
}

/** A strategy whose tokens are `t1`, `t2`…; refresh hands out the next one. */
function countingAuth(canRefresh = true) {
  const calls = { credentials: 0, refresh: [] as string[] };
  let token = 't1';
  const strategy: AuthStrategy = {
    async credentials() {
      calls.credentials++;
      return { token, owner: 'user:ada' };
    },
  };
  if (canRefresh) {
    strategy.refresh = async (failed: Credentials) => {
      calls.refresh.push(failed.token);
      token = `t${Number(failed.token.slice(1)) + 1}`;
      return { token, owner: 'user:ada' };
    };
  }
  return { strategy, calls };
}

describe('headers', () => {
  it('sends the default Accept, a User-Agent when configured, and the bearer token', async () => {
    const auth = countingAuth();
    const api = fakeFetch({ [`GET ${base}`]: rootDoc });
    await createClient({ baseUrl: base, fetch: api.fetch, auth: auth.strategy, userAgent: 'app/1.0' }).root();
    const [sent] = api.requests;
    expect(sent?.headers.get('accept')).toBe('application/hal+json, application/json');
    expect(sent?.headers.get('user-agent')).toBe('app/1.0');
    expect(sent?.headers.get('authorization')).toBe('Bearer t1');
  });

  it('sends no Authorization and no conditional headers without auth and cache', async () => {
    const api = fakeFetch({ [`GET ${base}`]: rootDoc });
    const client = createClient({ baseUrl: base, fetch: api.fetch, cache: false });
    await client.root();
    await client.root();
    for (const sent of api.requests) {
      expect([...sent.headers.keys()]).toEqual(['accept']);
    }
  });
});

describe('token refresh', () => {
  it('refreshes once after a 401, with the credentials that failed, and retries', async () => {
    const auth = countingAuth();
    const events = recordEvents();
    const api = fakeFetch({
      [`GET ${base}`]: (request) =>
        request.headers.get('authorization') === 'Bearer t2'
          ? json(rootDoc)
          : json({ _class: ['errors'], message: 'expired' }, { status: 401 }),
    });
    const client = createClient({ baseUrl: base, fetch: api.fetch, auth: auth.strategy, on: events.on });
    await client.root();
    expect(auth.calls.refresh).toEqual(['t1']);
    expect(api.requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer t1', 'Bearer t2']);
    expect(events.names()).toContain('token:refreshed');
  });

  it('does not loop: a second 401 becomes an UnauthorizedError', async () => {
    const auth = countingAuth();
    const api = fakeFetch({ [`GET ${base}`]: statuses(401) });
    const client = createClient({ baseUrl: base, fetch: api.fetch, auth: auth.strategy });
    await expect(client.root()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(api.requests).toHaveLength(2);
    expect(auth.calls.refresh).toHaveLength(1);
  });

  it('surfaces the 401 at once when the strategy cannot refresh', async () => {
    const auth = countingAuth(false);
    const api = fakeFetch({ [`GET ${base}`]: statuses(401) });
    await expect(createClient({ baseUrl: base, fetch: api.fetch, auth: auth.strategy }).root()).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    expect(api.requests).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries an idempotent request on 5xx, honouring Retry-After, then succeeds', async () => {
    const events = recordEvents();
    const api = fakeFetch({
      [`GET ${base}`]: statuses(
        () => json({ _class: ['errors'], message: 'busy' }, { status: 503, headers: { 'retry-after': '0' } }),
        502,
        () => json(rootDoc),
      ),
    });
    const client = createClient({
      baseUrl: base,
      fetch: api.fetch,
      retry: { limit: 2, delay: backoff(1) },
      on: events.on,
    });
    await client.root();
    expect(api.requests).toHaveLength(3);
    const retries = events.seen.filter((s) => s.name === 'retry').map((s) => s.event as ClientEvents['retry']);
    expect(retries.map((r) => [r.attempt, r.delay, r.error.constructor])).toEqual([
      [1, 0, ServerError],
      [2, 2, ServerError],
    ]);
  });

  it('waits what the server asks only on afterStatusCodes, capped by maxRetryAfter, else backs off', async () => {
    const events = recordEvents();
    const busy = (status: number, retryAfter: string) => () =>
      json({ _class: ['errors'], message: 'busy' }, { status, headers: { 'retry-after': retryAfter } });
    const api = fakeFetch({
      // 2 s capped to 1 ms; not an afterStatusCode; not delay-seconds: the last two back off.
      [`GET ${base}`]: statuses(busy(429, '2'), busy(503, '2'), busy(429, '1.5'), () => json(rootDoc)),
    });
    const client = createClient({
      baseUrl: base,
      fetch: api.fetch,
      retry: { limit: 3, delay: backoff(3), afterStatusCodes: [429], maxRetryAfter: 1 },
      on: events.on,
    });
    await client.root();
    const retries = events.seen.filter((s) => s.name === 'retry').map((s) => s.event as ClientEvents['retry']);
    expect(retries.map((r) => r.delay)).toEqual([1, 6, 12]);
  });

  it('gives up after the limit with the typed error of the last attempt', async () => {
    const api = fakeFetch({ [`GET ${base}`]: statuses(500) });
    const client = createClient({ baseUrl: base, fetch: api.fetch, retry: { limit: 1, delay: backoff(1) } });
    await expect(client.root()).rejects.toMatchObject({ code: 'SERVER_ERROR', status: 500 });
    expect(api.requests).toHaveLength(2);
  });

  it('retries network errors of every request, a POST with one Idempotency-Key on each attempt', async () => {
    const api = fakeFetch({
      [`GET ${base}`]: rootDoc,
      'GET http://api.test/v1/things/1': statuses('network', 200),
      'POST http://api.test/v1/things': statuses('network', 200),
      'PUT http://api.test/v1/things/1': statuses(503, 200),
    });
    const client = createClient({ baseUrl: base, fetch: api.fetch, retry: { delay: backoff(1) } });
    const root = await client.root();
    // Each answered by its second attempt, which the route answers with the thing.
    const thing = { properties: { id: '1' }, response: { status: 200 } };
    await expect(root.follow('svc:thing' as never)).resolves.toMatchObject(thing);
    await expect(root.follow('svc:update' as never, { a: 1 } as never)).resolves.toMatchObject(thing);
    await expect(root.follow('svc:create' as never)).resolves.toMatchObject(thing);
    expect(api.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'PUT', 'PUT', 'POST', 'POST']);
    const keys = api.requests.map((r) => r.headers.get('idempotency-key'));
    expect(keys.slice(0, 5)).toEqual([null, null, null, null, null]);
    // 128 random bits, base64url: 22 characters.
    expect(keys[5]).toMatch(/^"[\w-]{22}"$/);
    expect(keys[6]).toBe(keys[5]);
  });

  it("sends a new key per POST call, or the app's own, quoted as an sf-string", async () => {
    const api = fakeFetch({
      [`GET ${base}`]: rootDoc,
      'POST http://api.test/v1/things': statuses(200, 200, 'network', 200),
    });
    const client = createClient({ baseUrl: base, fetch: api.fetch, retry: { delay: backoff(1) } });
    const root = await client.root();
    await root.follow('svc:create' as never);
    await root.follow('svc:create' as never);
    await root.follow('svc:create' as never, undefined as never, { idempotencyKey: 'order-7 "a\\b"' });
    const keys = api.requests.filter((r) => r.method === 'POST').map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys.slice(2)).toEqual(['"order-7 \\"a\\\\b\\""', '"order-7 \\"a\\\\b\\""']);
  });

  it('draws every key anew across the random bytes it draws ahead (256 keys a draw)', async () => {
    const api = fakeFetch({ [`GET ${base}`]: rootDoc, 'POST http://api.test/v1/things': statuses(200) });
    const client = createClient({ baseUrl: base, fetch: api.fetch });
    const root = await client.root();
    for (let i = 0; i < 600; i++) await root.follow('svc:create' as never);
    const keys = api.requests.filter((r) => r.method === 'POST').map((r) => r.headers.get('idempotency-key'));
    expect(keys.every((key) => /^"[\w-]{22}"$/.test(key!))).toBe(true);
    expect(new Set(keys).size).toBe(600);
  });

  it('retries a POST answered 409 (its key still being answered elsewhere), never a PUT', async () => {
    const api = fakeFetch({
      [`GET ${base}`]: rootDoc,
      'POST http://api.test/v1/things': statuses(409, 200),
      'PUT http://api.test/v1/things/1': statuses(409, 200),
    });
    const client = createClient({ baseUrl: base, fetch: api.fetch, retry: { delay: backoff(1) } });
    const root = await client.root();
    await expect(root.follow('svc:create' as never)).resolves.toBeDefined();
    await expect(root.follow('svc:update' as never, { a: 1 } as never)).rejects.toMatchObject({ status: 409 });
    expect(api.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'POST', 'PUT']);
  });

  it('stops waiting between retries as soon as the signal aborts', async () => {
    const api = fakeFetch({ [`GET ${base}`]: statuses(503) });
    const client = createClient({ baseUrl: base, fetch: api.fetch, retry: { limit: 5, delay: backoff(60_000) } });
    const controller = new AbortController();
    const pending = client.root({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 5);
    await expect(pending).rejects.toThrow('user left');
    expect(api.requests).toHaveLength(1);
  });
});

describe('bodies', () => {
  it('rejects a success whose JSON does not parse, and a root that is not HAL', async () => {
    const broken = fakeFetch({
      [`GET ${base}`]: () => new Response('{"_class": [', { headers: { 'content-type': 'application/json' } }),
    });
    await expect(createClient({ baseUrl: base, fetch: broken.fetch }).root()).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
      body: '{"_class": [',
    });
    const plain = fakeFetch({ [`GET ${base}`]: () => json({ hello: 'world' }) });
    await expect(createClient({ baseUrl: base, fetch: plain.fetch }).root()).rejects.toBeInstanceOf(
      InvalidResponseError,
    );
  });

  it('keeps the text of an error body that is not JSON', async () => {
    const api = fakeFetch({
      [`GET ${base}`]: () =>
        new Response('<h1>Bad gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }),
    });
    await expect(createClient({ baseUrl: base, fetch: api.fetch, retry: false }).root()).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      body: '<h1>Bad gateway</h1>',
    });
  });
});

describe('timeouts', () => {
  it('turns a slow attempt into a TimeoutError, retried for idempotent requests', async () => {
    const never = (_: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    let calls = 0;
    const fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      calls++;
      return never(input, init);
    }) as typeof globalThis.fetch;
    const client = createClient({ baseUrl: base, fetch, timeout: 10, retry: { limit: 1, delay: backoff(1) } });
    const error = await client.root().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'TIMEOUT', timeout: 10, url: base });
    expect(calls).toBe(2);
  });
});

/** An HTTP cache that records the URLs of each invalidation. */
function recordingInvalidations(): { cache: HttpCache; invalidated: string[][] } {
  const invalidated: string[][] = [];
  const inner = createHttpCache();
  const cache: HttpCache = {
    ...inner,
    invalidate: async (owner, urls) => {
      invalidated.push([...urls]);
      return inner.invalidate(owner, urls);
    },
  };
  return { cache, invalidated };
}

describe('HTTP cache', () => {
  function validated(body: unknown, etag: string): Route {
    return (request) =>
      request.headers.get('if-none-match') === etag
        ? new Response(null, { status: 304, headers: { etag, 'x-oauth-scopes': 'admin' } })
        : json(body, { headers: { etag, 'last-modified': 'Sat, 21 Nov 2026 09:00:00 GMT' } });
  }

  it('revalidates a stored GET and answers a 304 from the store, marked as revalidated', async () => {
    const events = recordEvents();
    const api = fakeFetch({ [`GET ${base}`]: validated(rootDoc, '"v1"') });
    const client = createClient({ baseUrl: base, fetch: api.fetch, cache: createHttpCache(), on: events.on });
    const first = await client.root();
    const second = await client.root();
    expect(first.response?.revalidated).toBe(false);
    expect(second.response).toMatchObject({ status: 200, revalidated: true });
    expect(second.response?.headers.get('x-oauth-scopes')).toBe('admin');
    expect(second.toJSON()).toEqual(rootDoc);
    expect(api.requests[1]?.headers.get('if-none-match')).toBe('"v1"');
    expect(api.requests[1]?.headers.get('if-modified-since')).toBe('Sat, 21 Nov 2026 09:00:00 GMT');
    expect(events.names().filter((n) => n.startsWith('cache:'))).toEqual([
      'cache:stored',
      'cache:hit',
      'cache:revalidated',
    ]);
  });

  it('caches by default: the second GET of a URL is revalidated and answered from the cache on a 304', async () => {
    const api = fakeFetch({ [`GET ${base}`]: validated(rootDoc, '"v1"') });
    const client = createClient({ baseUrl: base, fetch: api.fetch });
    await client.root();
    const second = await client.root();
    expect(api.requests[1]?.headers.get('if-none-match')).toBe('"v1"');
    expect(second.response).toMatchObject({ status: 200, revalidated: true });
    expect(second.toJSON()).toEqual(rootDoc);
  });

  it('sends no conditional headers with cache: false', async () => {
    const api = fakeFetch({ [`GET ${base}`]: validated(rootDoc, '"v1"') });
    const client = createClient({ baseUrl: base, fetch: api.fetch, cache: false });
    await client.root();
    const second = await client.root();
    for (const sent of api.requests) {
      expect(sent.headers.has('if-none-match') || sent.headers.has('if-modified-since')).toBe(false);
    }
    expect(second.response?.revalidated).toBe(false);
  });

  it('keeps owners apart', async () => {
    let token = 'a';
    const strategy: AuthStrategy = { credentials: async () => ({ token, owner: `user:${token}` }) };
    const api = fakeFetch({ [`GET ${base}`]: validated(rootDoc, '"v1"') });
    const client = createClient({ baseUrl: base, fetch: api.fetch, cache: createHttpCache(), auth: strategy });
    await client.root();
    token = 'b';
    await client.root();
    expect(api.requests[1]?.headers.has('if-none-match')).toBe(false);
  });

  it('invalidates the target, its self and Location after an unsafe request', async () => {
    const { cache, invalidated } = recordingInvalidations();
    const api = fakeFetch({
      [`GET ${base}`]: rootDoc,
      'POST http://api.test/v1/things': () =>
        json(
          { _class: ['thing'], _links: { self: { href: '/v1/things/9' } } },
          { status: 201, headers: { location: '/v1/things/9?x=1' } },
        ),
      'DELETE http://api.test/v1/things/1': () => new Response(null, { status: 204 }),
      'GET http://api.test/v1/things/1': validated({ _class: ['thing'], _links: {} }, '"t"'),
    });
    const client = createClient({ baseUrl: base, fetch: api.fetch, cache });
    const root = await client.root();
    await root.follow('svc:thing' as never);
    await root.follow('svc:create' as never, { name: 'x' } as never);
    await root.follow('svc:remove' as never);
    await root.follow('svc:thing' as never);
    expect(invalidated).toEqual([
      ['http://api.test/v1/things', 'http://api.test/v1/things/9', 'http://api.test/v1/things/9?x=1'],
      ['http://api.test/v1/things/1'],
    ]);
    expect(api.requests.at(-1)?.headers.has('if-none-match')).toBe(false);
  });

  it("invalidates the answer's self when given as a list of links (the first)", async () => {
    const { cache, invalidated } = recordingInvalidations();
    const api = fakeFetch({
      [`GET ${base}`]: rootDoc,
      'PUT http://api.test/v1/things/1': () =>
        json({ _class: ['thing'], _links: { self: [{ href: '/v1/aliases/1' }, { href: '/v1/other/1' }] } }),
    });
    const client = createClient({ baseUrl: base, fetch: api.fetch, cache });
    await (await client.root()).follow('svc:update' as never, { name: 'x' } as never);
    expect(invalidated).toEqual([['http://api.test/v1/things/1', 'http://api.test/v1/aliases/1']]);
  });
});

describe('If-Match', () => {
  const alias = 'http://api.test/v1/aliases/1';
  const thing = 'http://api.test/v1/things/1';
  /** A thing read at another URL than its `self`, embedding a part (which has no ETag of its own). */
  const thingDoc = {
    _class: ['thing'],
    _links: {
      self: { href: '/v1/things/1' },
      'svc:update': { href: '/v1/things/1', method: 'put' },
      'svc:thing': { href: '/v1/things/1' },
    },
    _embedded: {
      parts: [
        {
          _class: ['part'],
          _links: { self: { href: '/v1/parts/2' }, 'svc:update': { href: '/v1/parts/2', method: 'put' } },
        },
      ],
    },
  };
  const tagged =
    (etag: string): Route =>
    () =>
      json(thingDoc, { headers: { etag } });

  function api(etag = '"a1"') {
    return fakeFetch({
      [`GET ${base}`]: { ...rootDoc, _links: { ...rootDoc._links, 'svc:alias': { href: 'aliases/1' } } },
      [`GET ${alias}`]: tagged(etag),
      [`GET ${thing}`]: tagged('"t1"'),
      'GET http://api.test/v1/parts/2': () => json({ _class: ['part'], _links: {} }, { headers: { etag: '"p1"' } }),
      [`PUT ${thing}`]: (request) =>
        request.headers.get('if-match') === '"stale"'
          ? json({ _class: ['errors'], message: 'changed' }, { status: 412 })
          : json({ _class: ['thing'], _links: {} }),
      'PUT http://api.test/v1/parts/2': { _class: ['part'], _links: {} },
    });
  }
  const readAlias = async (client: Client) => (await (await client.root()).follow('svc:alias' as never)) as Entity;
  const put = (fake: ReturnType<typeof api>) => fake.requests.filter((r) => r.method === 'PUT').at(-1)!;

  it('sends the ETag of the response the entity was read from, at whichever URL, with no cache', async () => {
    const fake = api();
    const entity = await readAlias(createClient({ baseUrl: base, fetch: fake.fetch }));
    await entity.follow('svc:update', { a: 1 }, { ifMatch: true });
    expect(put(fake).url).toBe(thing);
    expect(put(fake).headers.get('if-match')).toBe('"a1"');
    await entity.follow('svc:update', { a: 1 });
    expect(put(fake).headers.has('if-match')).toBe(false);
  });

  it('refuses ifMatch: true on an embedded entity before sending, whatever the cache holds; a tag given is sent', async () => {
    const fake = api();
    const client = createClient({ baseUrl: base, fetch: fake.fetch, cache: createHttpCache() });
    const entity = await readAlias(client);
    const part = entity.embedded('parts')[0]!;
    await part.follow('self');
    const sent = fake.requests.length;
    await expect(part.follow('svc:update', { a: 1 }, { ifMatch: true })).rejects.toThrow(
      /ifMatch: true needs this entity's ETag, and an embedded entity has none/,
    );
    expect(fake.requests).toHaveLength(sent);
    await part.follow('svc:update', { a: 1 }, { ifMatch: '"p1"' });
    expect(put(fake).headers.get('if-match')).toBe('"p1"');
  });

  it('refuses ifMatch: true when the response the entity was read from had no ETag', async () => {
    const fake = fakeFetch({ [`GET ${base}`]: rootDoc, [`GET ${thing}`]: thingDoc });
    const root = await createClient({ baseUrl: base, fetch: fake.fetch }).root();
    const entity = (await root.follow('svc:thing' as never)) as Entity;
    await expect(entity.follow('svc:update', { a: 1 }, { ifMatch: true })).rejects.toThrow(/its response had none/);
    expect(fake.requests.map((request) => request.method)).not.toContain('PUT');
  });

  it("uses the cached copy's ETag when the write targets another resource, and maps a 412", async () => {
    const fake = api();
    const client = createClient({ baseUrl: base, fetch: fake.fetch, cache: createHttpCache() });
    const root = await client.root();
    const sent = fake.requests.length;
    await expect(root.follow('svc:update' as never, { a: 1 } as never, { ifMatch: true })).rejects.toThrow(
      /the cache holds none/,
    );
    expect(fake.requests).toHaveLength(sent);
    await root.follow('svc:thing' as never);
    await root.follow('svc:update' as never, { a: 1 } as never, { ifMatch: true });
    expect(put(fake).headers.get('if-match')).toBe('"t1"');

    const stale = await readAlias(createClient({ baseUrl: base, fetch: api('"stale"').fetch }));
    const error = await stale.follow('svc:update', { a: 1 }, { ifMatch: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreconditionFailedError);
    expect(error).toMatchObject({ status: 412, method: 'PUT', url: thing });
  });

  it('refuses a value that is not an entity tag, and a GET, before sending anything', async () => {
    const fake = api();
    const entity = await readAlias(createClient({ baseUrl: base, fetch: fake.fetch }));
    const sent = fake.requests.length;
    await expect(entity.follow('svc:update', {}, { ifMatch: 'a1' })).rejects.toThrow(/entity tag/);
    await expect(entity.follow('svc:thing', undefined, { ifMatch: true })).rejects.toThrow(/GET/);
    expect(fake.requests).toHaveLength(sent);
  });
});

describe('events', () => {
  it('reports requests and responses with redacted headers', async () => {
    const events = recordEvents();
    const auth = countingAuth();
    const api = fakeFetch({ [`GET ${base}`]: rootDoc });
    await createClient({ baseUrl: base, fetch: api.fetch, auth: auth.strategy, on: events.on }).root();
    expect(events.names()).toEqual(['request', 'response']);
    const request = events.seen[0]!.event as ClientEvents['request'];
    const response = events.seen[1]!.event as ClientEvents['response'];
    expect(request).toMatchObject({ method: 'GET', url: base, attempt: 1 });
    expect(request.headers.authorization).toBe('[REDACTED]');
    expect(response).toMatchObject({ method: 'GET', url: base, status: 200, attempt: 1 });
    expect(response.duration).toBeGreaterThanOrEqual(0);
  });

  it('unsubscribes', async () => {
    const api = fakeFetch({ [`GET ${base}`]: rootDoc });
    const client = createClient({ baseUrl: base, fetch: api.fetch });
    const seen: string[] = [];
    const off = client.on('request', (event) => seen.push(event.url));
    await client.root();
    off();
    await client.root();
    expect(seen).toEqual([base]);
  });
});
