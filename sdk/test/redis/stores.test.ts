/**
 * The token store contract, on the in-memory store and on Redis (a real redis-server on a free port), and the
 * Redis cache store: TTL, size bound, prefixes, and what an outage does to each. The Redis parts run with each
 * client the stores accept: node-redis 5 and 4, ioredis 5 and 6.
 */

import { clientCredentials, createHttpCache, createMemoryTokenStore, TokenStoreError } from '@storefront-platform/sdk';
import { createRedisCacheStore, createRedisTokenStore, type RedisClient } from '@storefront-platform/sdk/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, REDIS_CLIENT_KINDS, type TestRedis } from '../../../test/support/redis-clients.js';
import { REDIS_SERVER, type RedisServer, startRedisServer } from '../../../test/support/redis-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { type ReferenceServer, startReferenceServer } from '../helpers/reference-server.js';
import { token, tokenStoreContract } from './token-store-contract.js';

const available = !skipWithout(REDIS_SERVER, 'The Redis store tests');

let server: RedisServer;
beforeAll(async () => {
  if (available) server = await startRedisServer();
});
afterAll(() => server?.stop());

/**
 * `client` with every command the stores send through it (its name) and every reply it gives them recorded,
 * whichever its kind: a proxy over the methods the stores send commands through (`sendCommand`, `call`), the client
 * itself bound for the rest.
 */
function counted(client: RedisClient): { client: RedisClient; commands: string[]; replies: unknown[] } {
  const commands: string[] = [];
  const replies: unknown[] = [];
  const proxy = new Proxy(client, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== 'function') return value;
      if (name !== 'sendCommand' && name !== 'call') return value.bind(target);
      return async (...args: unknown[]) => {
        // ioredis: `call(name, ...words)`; node-redis: `sendCommand(words)`.
        commands.push(String(Array.isArray(args[0]) ? args[0][0] : args[0]));
        const reply = await value.apply(target, args);
        replies.push(reply);
        return reply;
      };
    },
  });
  return { client: proxy, commands, replies };
}

/** A cache entry of `http://x/t` with `headers` and `body`. */
const entry = (headers: Record<string, string>, body: string) => ({
  url: 'http://x/t',
  status: 200,
  headers,
  body,
  storedAt: 1,
});

describe('token store: memory', () => tokenStoreContract(() => createMemoryTokenStore()));

describe('Redis stores: what is not a Redis client', () => {
  it.each([
    ['undefined', undefined],
    ['a URL', 'redis://127.0.0.1:6379'],
    ['an object of other methods', { get: async () => null }],
  ])('is refused at creation with a TypeError: %s', (_, client) => {
    const options = { client: client as unknown as RedisClient };
    expect(() => createRedisTokenStore(options)).toThrow(TypeError);
    expect(() => createRedisCacheStore(options)).toThrow(
      /need a Redis client \(node-redis 4, 5 or 6, or ioredis 5 or 6\)/,
    );
  });
});

describe.skipIf(!available).each(REDIS_CLIENT_KINDS.map((kind) => ({ kind })))('with $kind', ({ kind }) => {
  let redis: TestRedis;
  beforeAll(async () => {
    // Reconnecting every 50 ms: the outage tests wait for the client once the server is back.
    redis = await connectRedis(kind, server.url, 50);
    // What the previous client's run left (same prefixes) must not answer for this one.
    await redis.send('FLUSHALL');
  });
  afterAll(() => redis?.close());

  describe('token store', () =>
    tokenStoreContract(() => createRedisTokenStore({ client: redis.client, prefix: `t${Math.random()}` })));

  describe('Redis stores', () => {
    it('keep keys under their prefix, cache entries with a TTL, and skip entries over the size bound', async () => {
      const cache = createRedisCacheStore({ client: redis.client, prefix: 'app1', ttl: 600, maxEntryBytes: 2_000 });
      const entry = { url: 'http://x/v1/', status: 200, headers: { etag: '"1"' }, body: '{}', storedAt: 1 };
      await cache.set('user:1 http://x/v1/', entry);
      expect(await cache.get('user:1 http://x/v1/')).toEqual(entry);
      const ttl = Number(await redis.send('TTL', 'app1:cache:user:1 http://x/v1/'));
      expect(ttl).toBeGreaterThan(590);
      expect(ttl).toBeLessThanOrEqual(600);
      await cache.set('user:1 http://x/v1/big', { ...entry, body: 'x'.repeat(3_000) });
      expect(await cache.get('user:1 http://x/v1/big')).toBeUndefined();
      await cache.delete('user:1 http://x/v1/');
      expect(await cache.get('user:1 http://x/v1/')).toBeUndefined();

      const tokens = createRedisTokenStore({ client: redis.client, prefix: 'app1' });
      await tokens.compareAndSet('user:9', undefined, token('t'));
      expect(await redis.send('EXISTS', 'app1:token:user:9')).toBe(1);
    });

    it('answers an entry held here with an ETag from memory, and one dated only by Last-Modified as Redis holds it', async () => {
      const one = createRedisCacheStore({ client: redis.client, prefix: 'versions' });
      const two = createRedisCacheStore({ client: redis.client, prefix: 'versions' });
      for (const etag of ['"1"', 'W/"1"']) {
        const key = `k ${etag}`;
        await one.set(key, entry({ etag }, 'first'));
        expect((await two.get(key))?.body, etag).toBe('first');
        // What `two` holds is what its client revalidates with `If-None-Match`: the server says whether it is current.
        await one.set(key, entry({ etag: etag.replace('1', '2') }, 'second'));
        expect((await two.get(key))?.headers.etag, etag).toBe(etag);
        await one.delete(key);
        expect((await two.get(key))?.body, etag).toBe('first');
        // The delete reached Redis: an instance that holds nothing finds nothing.
        expect(await redis.send('EXISTS', `versions:cache:${key}`), etag).toBe(0);
        const three = createRedisCacheStore({ client: redis.client, prefix: 'versions' });
        expect(await three.get(key), etag).toBeUndefined();
        // What `two` stores itself (after a 200) replaces what it held, in Redis too.
        await two.set(key, entry({ etag }, 'third'));
        expect((await two.get(key))?.body, etag).toBe('third');
        expect((await three.get(key))?.body, etag).toBe('third');
      }
      // A date has one-second granularity: another instance's write or delete is seen, not left to `If-Modified-Since`.
      const dated = { 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' };
      await one.set('k dated', entry(dated, 'dated'));
      expect((await two.get('k dated'))?.body).toBe('dated');
      await one.set('k dated', entry(dated, 'dated, changed'));
      expect((await two.get('k dated'))?.body).toBe('dated, changed');
      await one.delete('k dated');
      expect(await two.get('k dated')).toBeUndefined();
    });

    it('keep in memory at most localBytes of entries: past it, the oldest are read whole from Redis again', async () => {
      const { client, replies } = counted(redis.client);
      const prefix = `bytes${Math.random()}`;
      const store = createRedisCacheStore({ client, prefix, localBytes: 5_000 });
      const numbered = (n: number) => ({
        url: `http://x/${n}`,
        status: 200,
        headers: { etag: `"${n}"` },
        body: `body ${n} ${'x'.repeat(2_000)}`,
        storedAt: 1,
      });
      for (const n of [1, 2, 3]) await store.set(`k${n}`, numbered(n));
      /** Whether reading `key` brought its body from Redis. */
      const moved = async (key: string) => {
        replies.length = 0;
        await store.get(key);
        return JSON.stringify(replies).includes('xxxx');
      };
      // Two entries of ~2 KB fit in 5 000 bytes: the first one went when the third came.
      expect(await moved('k3')).toBe(false);
      expect(await moved('k2')).toBe(false);
      expect(await moved('k1')).toBe(true);
    });

    it('read an entry held here with an ETag without a command, another in one round trip that moves its body only when it changed', async () => {
      // Two instances on one Redis, each with its own client, whose commands (and replies) are counted.
      const a = counted(redis.client);
      const b = counted(redis.client);
      const prefix = `trips${Math.random()}`;
      const one = createRedisCacheStore({ client: a.client, prefix });
      const two = createRedisCacheStore({ client: b.client, prefix });
      /** What `two.get(key)` answers, with the number of commands it sent and whether a reply carried `marker`. */
      const read = async (key: string, marker: string) => {
        b.replies.length = 0;
        const entry = await two.get(key);
        return { body: entry?.body, trips: b.replies.length, moved: JSON.stringify(b.replies).includes(marker) };
      };
      for (const [name, headers] of [
        ['strong ETag', (n: number) => ({ etag: `"${n}"` })],
        ['weak ETag', (n: number) => ({ etag: `W/"${n}"` })],
      ] as const) {
        const key = `user:1 http://x/${name}`;
        await one.set(key, entry(headers(1), `first ${name}`));
        // Not yet held by `two`: one round trip brings it whole.
        expect(await read(key, 'first'), name).toEqual({ body: `first ${name}`, trips: 1, moved: true });
        // Held by `two`: no command, whatever another instance does meanwhile.
        expect(await read(key, 'first'), name).toEqual({ body: `first ${name}`, trips: 0, moved: false });
        await one.set(key, entry(headers(2), `second ${name}`));
        expect(await read(key, 'second'), name).toEqual({ body: `first ${name}`, trips: 0, moved: false });
        // What `one` stored it holds: its own next read sends nothing either.
        a.replies.length = 0;
        expect((await one.get(key))?.body, name).toBe(`second ${name}`);
        expect(a.replies, name).toHaveLength(0);
      }

      // Dated only: every read asks Redis for the version, and the body moves only when it changed.
      const key = 'user:1 http://x/dated';
      const dated = (n: number) => ({ 'last-modified': new Date(n * 1_000).toUTCString() });
      await one.set(key, entry(dated(1), 'first'));
      expect(await read(key, 'first')).toEqual({ body: 'first', trips: 1, moved: true });
      expect(await read(key, 'first')).toEqual({ body: 'first', trips: 1, moved: false });
      await one.set(key, entry(dated(2), 'second'));
      expect(await read(key, 'second')).toEqual({ body: 'second', trips: 1, moved: true });
      expect(await read(key, 'second')).toEqual({ body: 'second', trips: 1, moved: false });
      // Another instance deleted it: one round trip, a miss, and `two` forgets its copy.
      await one.delete(key);
      expect(await read(key, 'second')).toEqual({ body: undefined, trips: 1, moved: false });
      await one.set(key, entry(dated(2), 'third'));
      expect(await read(key, 'third')).toEqual({ body: 'third', trips: 1, moved: true });
      a.replies.length = 0;
      expect((await one.get(key))?.body).toBe('third');
      expect(a.replies).toHaveLength(1);
      expect(JSON.stringify(a.replies)).not.toContain('third');
    });

    it('share entries with instances of the previous release, which wrote no version without a strong ETag', async () => {
      const store = createRedisCacheStore({ client: redis.client, prefix: 'rolling' });
      const redisKey = 'rolling:cache:k';
      /** A write as the previous release made it: the version '' for an entry without a strong ETag. */
      const writeAsBefore = async (version: string, stored: object) => {
        await redis.send('HSET', redisKey, 'v', version, 'e', JSON.stringify(stored));
        await redis.send('EXPIRE', redisKey, '600');
      };
      await writeAsBefore('', entry({ etag: 'W/"1"' }, 'old, weak'));
      expect((await store.get('k'))?.body).toBe('old, weak');
      await writeAsBefore('', entry({ etag: 'W/"1"' }, 'old, weak, changed'));
      expect((await store.get('k'))?.body).toBe('old, weak, changed');
      // This release's write of a dated entry, held here (by its version, as such entries are), then overwritten by
      // the previous release: the overwrite is what is read.
      const dated = { 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' };
      await store.set('k', entry(dated, 'new'));
      expect((await store.get('k'))?.body).toBe('new');
      await writeAsBefore('', entry(dated, 'old again'));
      expect((await store.get('k'))?.body).toBe('old again');
      await writeAsBefore('"2"', entry({ etag: '"2"' }, 'old, strong'));
      expect((await store.get('k'))?.body).toBe('old, strong');
      // What the previous release reads of this release's write (HGET v, then HGET e): a version and the entry.
      await store.set('k', entry(dated, 'new, dated'));
      const version = await redis.send('HGET', redisKey, 'v');
      expect(version).toMatch(/^[^"]/);
      expect(version).not.toBe('');
      expect(JSON.parse(String(await redis.send('HGET', redisKey, 'e'))).body).toBe('new, dated');
    });

    it('send each script by its SHA-1, and whole when Redis does not hold it (restarted, flushed)', async () => {
      const { client, commands } = counted(redis.client);
      const store = createRedisCacheStore({ client, prefix: `sha${Math.random()}`, localEntries: 0 });
      const sha = entry({ etag: '"1"' }, 'sha');
      await redis.send('SCRIPT', 'FLUSH');
      await store.set('k', sha);
      expect(commands).toEqual(['EVALSHA', 'EVAL']);
      commands.length = 0;
      await store.set('k', sha);
      expect(await store.get('k')).toEqual(sha);
      expect(await store.get('k')).toEqual(sha);
      expect(commands).toEqual(['EVALSHA', 'EVALSHA', 'EVAL', 'EVALSHA']);
    });

    it('send scripts whole, after one refusal, to a user whose ACL grants EVAL but not EVALSHA', async () => {
      await redis.send('ACL', 'SETUSER', 'eval-only', 'on', '>pw', '~*', '+@all', '-evalsha');
      const url = new URL(server.url);
      url.username = 'eval-only';
      url.password = 'pw';
      const limited = await connectRedis(kind, url.href, 50);
      try {
        const { client, commands } = counted(limited.client);
        const store = createRedisCacheStore({ client, prefix: `acl${Math.random()}`, localEntries: 0 });
        const acl = entry({ etag: '"1"' }, 'acl');
        await store.set('k', acl);
        expect(await store.get('k')).toEqual(acl);
        expect(commands).toEqual(['EVALSHA', 'EVAL', 'EVAL']);
      } finally {
        await limited.close();
      }
    });

    it('fail with a typed error (tokens) or a rejection (cache) while Redis is down, and work again after', async () => {
      const tokens = createRedisTokenStore({ client: redis.client, prefix: 'outage', commandTimeout: 300 });
      const cache = createRedisCacheStore({ client: redis.client, prefix: 'outage', commandTimeout: 300 });
      await tokens.compareAndSet('user:1', undefined, token('a'));
      await server.stop();
      try {
        await expect(tokens.get('user:1')).rejects.toBeInstanceOf(TokenStoreError);
        await expect(tokens.acquire('user:1', 1_000)).rejects.toMatchObject({ code: 'TOKEN_STORE' });
        await expect(cache.get('k')).rejects.toThrow();
      } finally {
        await server.start();
      }
      await expect.poll(() => tokens.get('user:1').catch(() => 'down'), { timeout: 5_000 }).toBeUndefined();
      // The server restarted empty (no persistence): the store answers again, with what it now holds.
      expect(await tokens.compareAndSet('user:1', undefined, token('b'))).toBe(true);
    });
  });

  describe('a client on Redis stores, against the reference server', () => {
    let ref: ReferenceServer;
    beforeAll(async () => {
      ref = await startReferenceServer();
    });
    afterAll(() => ref.server.close());

    /** The theme's response, read by its links as an app does. */
    const readTheme = async (client: ReturnType<ReferenceServer['client']>) => {
      const root = await client.root();
      const shop = await root.embedded('shops')[0]!.follow('self');
      return shop.follow('svc:theme');
    };

    it('with an HTTP cache on Redis: revalidates what it holds while Redis is down, falls back to full requests for the rest, and uses Redis again after', async () => {
      const prefix = `http${Math.random()}`;
      /** Each instance's store failures, as its cache's `onError` and as its client's `cache:error` events saw them. */
      const failures = () => ({ errors: [] as unknown[], events: [] as unknown[] });
      const seen = { client: failures(), other: failures() };
      const instance = (name: keyof typeof seen) =>
        ref.client({
          cache: createHttpCache({
            store: createRedisCacheStore({ client: redis.client, prefix, commandTimeout: 300 }),
            onError: (error) => seen[name].errors.push(error),
          }),
          on: { 'cache:error': ({ error }) => seen[name].events.push(error) },
        });
      const client = instance('client');
      // Another instance on the same Redis, which has read nothing yet.
      const other = instance('other');
      const theme = async (on = client) => (await readTheme(on)).response!;
      expect((await theme()).revalidated).toBe(false);
      expect((await theme()).revalidated).toBe(true);
      await server.stop();
      try {
        // What this instance holds, the server revalidates: Redis is not asked.
        expect(await theme()).toMatchObject({ status: 200, revalidated: true });
        expect(seen.client).toEqual({ errors: [], events: [] });
        // What it does not hold, Redis cannot give: a full request, and the failure reported.
        expect(await theme(other)).toMatchObject({ status: 200, revalidated: false });
        expect(seen.other.errors.length).toBeGreaterThan(0);
        // The client reports the same failures as events, for its log.
        expect(seen.other.events).toEqual(seen.other.errors);
      } finally {
        await server.start();
      }
      // The other instance's entries reach Redis again: a third instance revalidates what they stored.
      const third = ref.client({
        cache: createHttpCache({ store: createRedisCacheStore({ client: redis.client, prefix }) }),
      });
      await expect.poll(async () => (await theme(other)).revalidated, { timeout: 5_000 }).toBe(true);
      await expect.poll(async () => (await theme(third)).revalidated, { timeout: 5_000 }).toBe(true);
    });

    it("with an HTTP cache on Redis: a read of what this instance holds asks Redis nothing, and another instance's write is still seen", async () => {
      /** One instance: a client whose cache store counts its Redis commands, reading through `fetch`. */
      const instance = (prefix: string, fetch?: typeof globalThis.fetch) => {
        const { client, replies } = counted(redis.client);
        return {
          replies,
          client: ref.client({ fetch, cache: createHttpCache({ store: createRedisCacheStore({ client, prefix }) }) }),
        };
      };
      /** `fetch` with the ETag of each answer dropped: a server (or proxy) that sends only `Last-Modified`. */
      const undated: typeof globalThis.fetch = async (input, init) => {
        const response = await globalThis.fetch(input, init);
        const headers = new Headers(response.headers);
        headers.delete('etag');
        const body = response.status === 304 ? null : response.body;
        return new Response(body, { status: response.status, statusText: response.statusText, headers });
      };
      for (const [name, fetch, commandsPerRead] of [
        ['ETag', undefined, 0],
        ['Last-Modified only', undated, 1],
      ] as const) {
        const prefix = `fleet${Math.random()}`;
        const a = instance(prefix, fetch);
        const b = instance(prefix, fetch);
        const theme = await readTheme(a.client);
        expect(theme.response!.revalidated, name).toBe(false);
        expect((await readTheme(b.client)).response!.revalidated, name).toBe(true);
        b.replies.length = 0;
        const held = await readTheme(b.client);
        expect(held.response!.revalidated, name).toBe(true);
        // Root, shop and theme: each held by this instance.
        expect(b.replies, name).toHaveLength(3 * commandsPerRead);

        const title = `Renamed ${Math.random()}`;
        await theme.follow('svc:update_theme', { title });
        b.replies.length = 0;
        const after = await readTheme(b.client);
        expect(after.properties.title, name).toBe(title);
        expect(after.response!.revalidated, name).toBe(false);
        // What that 200 brought is what is held now. (A date alone is not compared: the reference server takes a
        // Last-Modified within the second of a write for a weak one, and answers 200 to it.)
        if (fetch === undefined) expect((await readTheme(b.client)).response!.revalidated, name).toBe(true);
      }
    });

    it('with a token store on Redis: keeps working on its token while Redis is down, fails a refresh it needs then, and refreshes once Redis is back', async () => {
      const { clientId, clientSecret } = ref.credentials;
      const tokenStore = createRedisTokenStore({
        client: redis.client,
        prefix: `client${Math.random()}`,
        commandTimeout: 300,
      });
      const tokens: string[] = [];
      const auth = clientCredentials({
        authUrl: ref.server.origin,
        clientId,
        clientSecret,
        scope: 'admin',
        tokenStore,
        onToken: (info) => {
          tokens.push(info.accessToken);
        },
      });
      const client = ref.client({ auth, cache: false });
      await client.root();
      expect(tokens).toHaveLength(1);
      await server.stop();
      try {
        // The token this instance holds needs no store.
        expect((await client.root()).properties.scopes).toBe('admin');
        // Expired at the server: a refresh must go through the store, which is down. A typed error, not a hang
        // and not a token exchanged behind the other instances' backs.
        ref.clock.advance(3_601_000);
        await expect(client.root()).rejects.toMatchObject({ code: 'TOKEN_STORE' });
        await expect(client.root()).rejects.toBeInstanceOf(TokenStoreError);
        expect(tokens).toHaveLength(1);
      } finally {
        await server.start();
      }
      await expect
        .poll(
          () =>
            client.root().then(
              () => 'ok',
              (error: Error) => error.name,
            ),
          { timeout: 5_000 },
        )
        .toBe('ok');
      expect(tokens).toHaveLength(2);
    });
  });
});
