import {
  createClient,
  Entity,
  InvalidResponseError,
  Results,
  TemplateVariableError,
  UnknownRelationError,
} from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { fakeFetch, json, type SentRequest } from './helpers/fake-fetch.js';

const base = 'http://api.test/v1/';

/** A root in the spirit of the API but written by hand: another curie prefix, relative hrefs, integer ids. */
const root = {
  _class: ['root'],
  user_name: 'Ada',
  _links: {
    self: { href: '/v1/' },
    curies: [{ name: 'acme', href: '/docs/rels/{rel}', templated: true }],
    'acme:shop': { href: 'shops/{id}', templated: true },
    'acme:product': { href: '/v1/shops/{shop_id}/products/{id}.json', templated: true },
    'acme:all_products': { href: 'products.json?shop_ids=1{&q,page}', templated: true },
    'acme:search': { href: 'search{?q,tags}', templated: true },
    'acme:ping': { href: 'ping', method: 'post' },
    'acme:stats': { href: 'stats' },
    'acme:logo': { href: 'logo.png', type: 'image/png' },
    'acme:web': { href: 'https://shop.test/', type: 'text/html' },
    'http://api.test/docs/rels/by_iri': { href: 'by-iri' },
  },
  _embedded: {
    shops: [
      {
        _class: ['shop'],
        id: 7,
        name: 'Seven',
        _links: { self: { href: 'shops/7' }, 'acme:theme': { href: 'shops/7/theme.json' } },
      },
    ],
  },
  _actions: [{ name: 'not-hal', href: 'ignored' }],
};

const theme = {
  _class: ['theme'],
  id: 't1',
  title: 'Main',
  _links: {
    self: { href: '/v1/themes/t1' },
    curies: [{ name: 'x', href: 'http://api.test/docs/rels/{rel}', templated: true }],
    'x:update_theme': { href: '/v1/themes/t1', method: 'put' },
    'x:create_template': { href: 'themes/t1/templates', method: 'post' },
    'x:delete_all': { href: '/v1/themes/t1/templates', method: 'delete' },
    'x:templates_of': { href: '/v1/themes/t1/templates{?page}', templated: true, method: 'post' },
  },
  _embedded: {
    templates: [
      { _class: ['themeTemplate'], id: 'a', _links: { 'x:update_template': { href: 'templates/a', method: 'put' } } },
    ],
  },
};

function setup(extra: Record<string, object> = {}) {
  const api = fakeFetch({
    [`GET ${base}`]: root,
    'GET http://api.test/v1/shops/7/theme.json': theme,
    ...extra,
  });
  return { api, client: createClient({ baseUrl: base, fetch: api.fetch, retry: false }) };
}

describe('entities', () => {
  it('exposes properties, _class, links and embedded entities, keeping extra members as properties', async () => {
    const { client } = setup();
    const entity = await client.root();
    expect(entity._class).toEqual(['root']);
    expect(entity.properties.user_name).toBe('Ada');
    expect((entity.properties as unknown as Record<string, unknown>)._actions).toEqual(root._actions);
    expect(entity.properties).not.toHaveProperty('_links');
    expect([...entity.links.keys()]).toContain('acme:shop');
    const [shop] = entity.embedded('shops');
    expect(shop).toBeInstanceOf(Entity);
    expect(shop?.properties.id).toBe(7);
    expect(entity.has('user_name')).toBe(true);
    expect(entity.has('shops')).toBe(true);
    expect(entity.has('nothing')).toBe(false);
    expect(entity.has('toString')).toBe(false);
    expect(entity.has('_links')).toBe(false);
    expect(entity.response?.status).toBe(200);
  });

  it('keeps a "__proto__" member as a plain property, never as the prototype of properties', async () => {
    const text = '{"_class":["root"],"__proto__":{"polluted":true},"_links":{"self":{"href":"/v1/"}}}';
    const { client } = setup({
      [`GET ${base}`]: () => new Response(text, { headers: { 'content-type': 'application/hal+json' } }),
    });
    const properties = (await client.root()).properties as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.hasOwn(properties, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(properties, '__proto__')?.value).toEqual({ polluted: true });
    expect(properties.polluted).toBeUndefined();
  });

  it('reports the real status and headers when the root is not a HAL resource', async () => {
    const { client } = setup({
      [`GET ${base}`]: () => json([1, 2], { status: 203, type: 'application/json', headers: { 'x-via': 'proxy' } }),
    });
    const error = await client.root().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ status: 203, body: [1, 2], headers: { 'x-via': 'proxy' } });
  });

  it('finds a relation by its prefixed name, a foreign prefix, no prefix, or its IRI', async () => {
    const { client } = setup();
    const entity = await client.root();
    for (const name of ['acme:stats', 'svc:stats', 'stats', 'http://api.test/docs/rels/stats']) {
      expect(entity.link(name as 'self').href, name).toBe('stats');
    }
    expect(entity.can('acme:by_iri')).toBe(true);
    expect(entity.can('update_theme')).toBe(false);
  });

  it('throws an error listing the relations present for an unknown one', async () => {
    const { client } = setup();
    const entity = await client.root();
    const error = (() => {
      try {
        entity.link('svc:nope' as 'self');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnknownRelationError);
    expect(error).toMatchObject({ code: 'UNKNOWN_RELATION', relation: 'svc:nope' });
    expect((error as UnknownRelationError).available).toContain('acme:shop');
    expect((error as Error).message).toMatch(/acme:stats/);
  });

  it('resolves relative hrefs against the document URL and embedded links against their document', async () => {
    const { client, api } = setup();
    const entity = await client.root();
    expect(entity.link('acme:stats' as 'self').expand()).toBe('http://api.test/v1/stats');
    const [shop] = entity.embedded('shops');
    await shop!.follow('theme' as never);
    expect(api.requests.at(-1)?.url).toBe('http://api.test/v1/shops/7/theme.json');
  });

  it('reads an embedded resource given as an object as a list of one, and exposes link attributes', async () => {
    const { client } = setup({
      'GET http://api.test/v1/stats': {
        _class: ['stats'],
        _links: { 'acme:report': [{ href: 'r1', title: 'First', name: 'one', type: 'text/csv' }, { href: 'r2' }] },
        _embedded: { owner: { _class: ['user'], name: 'Ada' } },
      },
    });
    const stats = (await (await client.root()).follow('stats' as never)) as Entity;
    expect(stats.embedded('owner').map((e) => e.properties.name)).toEqual(['Ada']);
    expect(stats.embedded('missing')).toEqual([]);
    const report = stats.link('report');
    expect(report).toMatchObject({ rel: 'acme:report', title: 'First', name: 'one', type: 'text/csv', method: 'GET' });
    expect(stats.links.get('acme:report')?.map((l) => l.expand())).toEqual([
      'http://api.test/v1/r1',
      'http://api.test/v1/r2',
    ]);
  });

  it('lets embedded resources inherit curies and their own curies override', async () => {
    const { client } = setup();
    const shop = (await client.root()).embedded('shops')[0]!;
    expect(shop.link('http://api.test/docs/rels/theme' as never).href).toBe('shops/7/theme.json');
    const themeEntity = (await shop.follow('svc:theme' as never)) as Entity;
    const [template] = themeEntity.embedded('templates');
    expect(template!.can('http://api.test/docs/rels/update_template')).toBe(true);
  });
});

describe('templates', () => {
  it('expands integer and string ids into path variables', async () => {
    const { client } = setup();
    const entity = await client.root();
    expect(entity.link('svc:product').expand({ shop_id: 7, id: 'p-1' })).toBe(
      'http://api.test/v1/shops/7/products/p-1.json',
    );
    expect(entity.link('svc:shop').expand({ id: 7 })).toBe('http://api.test/v1/shops/7');
  });

  it('continues a form query and joins lists with commas', async () => {
    const { client } = setup();
    const entity = await client.root();
    const link = entity.link('svc:all_products');
    expect(link.variables).toEqual(['q', 'page']);
    expect(link.expand({ q: 'red shoes', page: 2 })).toBe(
      'http://api.test/v1/products.json?shop_ids=1&q=red%20shoes&page=2',
    );
    expect(link.expand({})).toBe('http://api.test/v1/products.json?shop_ids=1');
    expect(entity.link('search' as never).expand({ tags: ['a', 'b'] })).toBe('http://api.test/v1/search?tags=a,b');
  });

  it('rejects a missing path variable and an undeclared variable with a clear error', async () => {
    const { client, api } = setup();
    const entity = await client.root();
    expect(() => entity.link('svc:product').expand({ shop_id: 7 } as never)).toThrowError(
      /Missing required variable\(s\) id/,
    );
    const undeclared = entity.follow('svc:all_products', { qq: 'typo' } as never);
    await expect(undeclared).rejects.toBeInstanceOf(TemplateVariableError);
    await expect(undeclared).rejects.toMatchObject({
      reason: 'undeclared',
      variables: ['qq'],
      declared: ['q', 'page'],
    });
    await expect(entity.follow('stats' as never, { x: 1 } as never)).rejects.toMatchObject({
      code: 'TEMPLATE_VARIABLE',
    });
    expect(api.requests).toHaveLength(1);
  });
});

describe('following', () => {
  it("uses the link's method and sends the arguments the template does not use as the JSON body", async () => {
    const { client, api } = setup({
      'PUT http://api.test/v1/themes/t1': (request: SentRequest) =>
        json({ ...theme, title: JSON.parse(request.body!).title }),
      'POST http://api.test/v1/themes/t1/templates?page=2': { _class: ['themeTemplate'], _links: {}, id: 'n' },
    });
    const shop = (await client.root()).embedded('shops')[0]!;
    const themeEntity = (await shop.follow('svc:theme' as never)) as Entity;
    const updated = (await themeEntity.follow('update_theme', { title: 'New' })) as Entity;
    expect(updated.properties.title).toBe('New');
    const put = api.requests.at(-1)!;
    expect(put.method).toBe('PUT');
    expect(put.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(put.body!)).toEqual({ title: 'New' });

    await themeEntity.follow('templates_of', { page: 2, file_name: 'a.html' });
    expect(api.requests.at(-1)).toMatchObject({ method: 'POST', body: '{"file_name":"a.html"}' });
  });

  it('resolves a 204 to undefined', async () => {
    const { client } = setup({ 'POST http://api.test/v1/ping': () => new Response(null, { status: 204 }) });
    await expect((await client.root()).follow('ping' as never)).resolves.toBeUndefined();
  });

  it('rejects an answer that is not a HAL resource, naming the URL and the fault', async () => {
    const shapes: [unknown, string][] = [
      [[1, 2, 3], 'the document is an array, not a HAL resource'],
      [{ hello: 'world' }, 'the document has no _links, so it is not a HAL resource'],
      ['text', 'the document is a string, not a HAL resource'],
      [null, 'the document is null, not a HAL resource'],
      [{ _links: [] }, '_links is an array, not an object'],
      [{ _links: { self: { href: 1 } } }, '_links.self.href is a number, not a string'],
      [{ _links: { 'svc:x': [{ href: 'a' }, null] } }, '_links["svc:x"][1] is null, not a link object'],
      [{ _links: { self: { href: 'a', templated: 'yes' } } }, '_links.self.templated is a string, not a boolean'],
      [{ _links: {}, _class: 'theme' }, '_class is not a list of strings'],
      [{ _links: {}, _embedded: [] }, '_embedded is an array, not an object'],
      [{ _links: {}, _embedded: { shops: [null] } }, '_embedded.shops[0] is null, not a HAL resource'],
      [{ _links: {}, _embedded: { shops: [{ _links: {} }, 7] } }, '_embedded.shops[1] is a number, not a HAL resource'],
      [{ _links: {}, _embedded: { shop: 'x' } }, '_embedded.shop is a string, not a HAL resource'],
      [
        { _links: {}, _embedded: { items: [{ _embedded: { variants: [[]] } }] } },
        '_embedded.items[0]._embedded.variants[0] is an array, not a HAL resource',
      ],
    ];
    for (const [body, problem] of shapes) {
      const { client } = setup({
        'GET http://api.test/v1/stats': () =>
          new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
      });
      const root = (await client.root()) as unknown as Entity;
      const error = await root.follow('stats').catch((e: unknown) => e);
      expect(error, JSON.stringify(body)).toBeInstanceOf(InvalidResponseError);
      expect(error).toMatchObject({ problem, url: 'http://api.test/v1/stats', status: 200 });
      expect((error as Error).message).toContain('GET http://api.test/v1/stats answered 200');
    }
  });

  it('takes embedded parts without links, and a single embedded resource as a list of one', async () => {
    const { client } = setup({
      'GET http://api.test/v1/stats': {
        _links: {},
        _embedded: { variants: [{ _class: ['productVariant'], id: 'v' }], shop: { _links: { self: { href: 's' } } } },
      },
    });
    const entity = (await (await client.root()).follow('stats' as never)) as Entity;
    expect(entity.embedded('variants' as never)[0]!.properties).toEqual({ id: 'v' });
    expect(entity.embedded('shop' as never)).toHaveLength(1);
    expect(entity.embedded('nothing' as never)).toEqual([]);
  });

  it('rejects JSON to a link typed otherwise, and another type to a link without one', async () => {
    const { client } = setup({
      'GET http://api.test/v1/logo.png': { _links: {} },
      'GET http://api.test/v1/stats': () =>
        new Response('<h1>proxy</h1>', { headers: { 'content-type': 'text/html' } }),
    });
    const root = await client.root();
    await expect(root.follow('logo' as never)).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
      problem: 'JSON, where the link announced image/png',
    });
    await expect(root.follow('stats' as never)).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
      problem: 'a body of text/html, not JSON',
    });
  });

  it('returns a non-JSON target as the Response, body unread, asking for its media type', async () => {
    const { client, api } = setup({
      'GET https://shop.test/': () => new Response('<h1>Shop</h1>', { headers: { 'content-type': 'text/html' } }),
    });
    const page = await (await client.root()).follow('web' as never);
    expect(page).toBeInstanceOf(Response);
    await expect((page as Response).text()).resolves.toBe('<h1>Shop</h1>');
    expect(api.requests.at(-1)?.headers.get('accept')).toBe('text/html, */*;q=0.8');
  });

  it('builds a Results entity for a list', async () => {
    const { client } = setup({
      'GET http://api.test/v1/products.json?shop_ids=1': { _class: ['results', 'product'], total_items: 0, _links: {} },
    });
    const list = await (await client.root()).follow('svc:all_products');
    expect(list).toBeInstanceOf(Results);
    expect(list.properties.total_items).toBe(0);
  });
});
