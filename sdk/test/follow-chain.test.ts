import {
  createClient,
  Entity,
  type FollowPromise,
  NotFoundError,
  UnknownRelationError,
} from '@storefront-platform/sdk';
import { describe, expect, it, vi } from 'vitest';
import { fakeFetch } from './helpers/fake-fetch.js';

const base = 'http://api.test/v1/';

const routes = {
  [`GET ${base}`]: {
    _class: ['root'],
    _links: {
      self: { href: '/v1/' },
      'svc:shop': { href: 'shops/{id}', templated: true },
      'svc:ping': { href: 'ping', method: 'post' },
    },
  },
  'GET http://api.test/v1/shops/7': {
    _class: ['shop'],
    id: 7,
    _links: { self: { href: '/v1/shops/7' }, 'svc:theme': { href: '/v1/shops/7/theme' }, 'svc:gone': { href: 'gone' } },
  },
  'GET http://api.test/v1/shops/7/theme': {
    _class: ['theme'],
    title: 'Main',
    _links: { self: { href: '/v1/shops/7/theme' } },
  },
  'POST http://api.test/v1/ping': () => new Response(null, { status: 204 }),
};

function setup() {
  const api = fakeFetch(routes);
  return { api, client: createClient({ baseUrl: base, fetch: api.fetch, retry: false }) };
}

/** The requests sent, as `METHOD path`. */
const sent = (api: ReturnType<typeof fakeFetch>) => api.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`);

describe('follow chains', () => {
  it('follows hop after hop in one await, one request per hop', async () => {
    const { api, client } = setup();
    const theme = await client.root().follow('svc:shop', { id: 7 }).follow('theme');
    expect(theme.properties).toEqual({ title: 'Main' });
    expect(sent(api)).toEqual(['GET /v1/', 'GET /v1/shops/7', 'GET /v1/shops/7/theme']);
  });

  it('chains from an entity as from the root', async () => {
    const { api, client } = setup();
    const root = await client.root();
    const theme = await root.follow('svc:shop', { id: 7 }).follow('svc:theme').follow('self');
    expect(theme._class).toEqual(['theme']);
    expect(api.requests).toHaveLength(4);
  });

  it('sends each hop as soon as the one before has arrived, awaited or not', async () => {
    const { api, client } = setup();
    const chain = client.root().follow('svc:shop', { id: 7 }).follow('svc:theme');
    await vi.waitFor(() => expect(api.requests).toHaveLength(3));
    await chain;
    expect(api.requests).toHaveLength(3);
  });

  it('rejects with the error of the hop that failed, of the same class, naming the hop', async () => {
    const { api, client } = setup();
    // `svc:gone` is not in the contract: this chain is untyped.
    const error = await (client.root() as unknown as FollowPromise<Entity>)
      .follow('svc:shop', { id: 7 })
      .follow('svc:gone')
      .follow('self')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404, hop: { relation: 'svc:gone', position: 2 } });
    expect((error as Error).message).toBe(
      'GET http://api.test/v1/shops/gone failed with 404: Not found (hop 2: svc:gone)',
    );
    expect((error as Error).stack).toContain('(hop 2: svc:gone)');
    // Nothing after the failure.
    expect(sent(api)).toEqual(['GET /v1/', 'GET /v1/shops/7', 'GET /v1/shops/gone']);
  });

  it('names the first hop of a chain started on an entity, and leaves a lone follow as it was', async () => {
    const { client } = setup();
    const root = await client.root();
    const missing = root.follow('svc:shop', { id: 9 });
    const chained = missing.follow('svc:theme');
    await expect(chained).rejects.toMatchObject({ hop: { relation: 'svc:shop', position: 1 } });
    const alone = await missing.catch((e: unknown) => e);
    expect(alone).toBeInstanceOf(NotFoundError);
    expect(alone).not.toHaveProperty('hop');
    expect((alone as Error).message).not.toContain('(hop');
  });

  it('names the hop of a relation that is not there, and of a template variable missing', async () => {
    const { client } = setup();
    const unknown = await client
      .root()
      .follow('svc:shop', { id: 7 })
      .follow('svc:orders')
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UnknownRelationError);
    expect(unknown).toMatchObject({ relation: 'svc:orders', hop: { relation: 'svc:orders', position: 2 } });
    // @ts-expect-error: `id` is missing, for the error at run time
    await expect(client.root().follow('svc:shop')).rejects.toMatchObject({
      code: 'TEMPLATE_VARIABLE',
      hop: { relation: 'svc:shop', position: 1 },
    });
  });

  it("passes the root's failure and an abort's reason through unchanged", async () => {
    const api = fakeFetch({});
    const client = createClient({ baseUrl: base, fetch: api.fetch, retry: false });
    const error = await client
      .root()
      .follow('svc:shop', { id: 7 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).not.toHaveProperty('hop');

    const { client: live } = setup();
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    const root = await live.root();
    await expect(root.follow('svc:shop', { id: 7 }, { signal: controller.signal }).follow('self')).rejects.toBe(reason);
  });

  it('names the hop on a copy, leaving an error that other requests may share as it was', async () => {
    const shared = new NotFoundError({ method: 'GET', url: 'http://api.test/v1/shops/7/theme', status: 404 });
    const follow = Entity.prototype.follow;
    const spy = vi.spyOn(Entity.prototype, 'follow').mockImplementation(function (this: Entity, rel, ...args) {
      return rel === 'svc:theme' ? (Promise.reject(shared) as never) : follow.call(this, rel, ...args);
    });
    try {
      const { client } = setup();
      const error = await client
        .root()
        .follow('svc:shop', { id: 7 })
        .follow('svc:theme')
        .catch((e: unknown) => e);
      expect(error).not.toBe(shared);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, url: shared.url, hop: { relation: 'svc:theme', position: 2 } });
      expect(shared).not.toHaveProperty('hop');
      expect(shared.message).toBe('GET http://api.test/v1/shops/7/theme failed with 404');
    } finally {
      spy.mockRestore();
    }
  });

  it('fails clearly when an untyped hop resolved to no entity', async () => {
    const { client } = setup();
    const root = (await client.root()) as unknown as Entity;
    await expect(root.follow('svc:ping').follow('self')).rejects.toThrow(
      new TypeError('hop 2: self follows from no entity'),
    );
  });
});
