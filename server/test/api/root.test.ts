import { describe, expect, it } from 'vitest';
import { type Doc, useThemeServer } from '../themes/fixture.js';

const t = useThemeServer();

describe('root', () => {
  it('describes the user and links every resource an admin token may use', async () => {
    const root = await t.json('', { status: 200 });
    expect(root._class).toEqual(['root']);
    expect(root).toMatchObject({ user_name: 'Dana Demo', role: 'admin', scopes: 'admin' });
    const base = t.base;
    expect(root._links).toEqual({
      curies: [{ name: 'svc', href: `${t.server.origin}/rels/{rel}`, templated: true }],
      self: { href: base },
      'svc:all_products': {
        href: `${base}/products.json{?q,shop_ids,status,tags,sort,page,per_page}`,
        templated: true,
      },
      'svc:product': { href: `${base}/shops/{shop_id}/products/{id}.json`, templated: true },
      'svc:shops': { href: `${base}/shops.json{?q,page,per_page}`, templated: true },
      'svc:shop': { href: `${base}/shops/{id}.json`, templated: true },
      'svc:all_orders': { href: `${base}/orders.json{?shop_ids,status,q,sort,page,per_page}`, templated: true },
      'svc:order': { href: `${base}/shops/{shop_id}/orders/{id}.json`, templated: true },
      'svc:events': { href: `${base}/events.json{?after,types,shop_ids,wait,per_page}`, templated: true },
      'svc:event': { href: `${base}/events/{id}.json`, templated: true },
      'svc:webhook_endpoints': { href: `${base}/webhook_endpoints.json{?page,per_page}`, templated: true },
      'svc:create_webhook_endpoint': {
        href: `${base}/webhook_endpoints`,
        method: 'post',
        title: 'Add webhook endpoint',
      },
      'service-desc': { href: `${base}/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' },
      'service-doc': { href: `${t.server.origin}/explorer`, type: 'text/html', title: 'API explorer' },
    });
  });

  it('advertises in each list template exactly the variables the list reads, in its canonical order', async () => {
    const root = await t.json('');
    const values: Record<string, string> = {
      q: 'a',
      shop_ids: '1',
      status: 'visible',
      tags: 'sale',
      sort: 'updated_on.asc',
      page: '2',
      per_page: '5',
    };
    for (const rel of ['svc:all_products', 'svc:all_orders', 'svc:shops']) {
      const [href, variables] = (root._links[rel].href as string).split('{?') as [string, string];
      const names = variables.slice(0, -1).split(',');
      // Orders have their own statuses.
      const query = names.map((name) => [name, rel === 'svc:all_orders' && name === 'status' ? 'paid' : values[name]!]);
      // Sent in reverse: the self link puts them back in the template's order.
      const list = await t.json(`${href}?${new URLSearchParams([...query].reverse())}`, { status: 200 });
      expect(list._links.self.href).toBe(`${href}?${new URLSearchParams(query)}`);
    }
  });

  it('embeds the shops the user administers, public or not', async () => {
    const root = await t.json('');
    const shops = root._embedded.shops as Doc[];
    expect(shops.map((s) => s.id)).toEqual(['1', '2']);
    expect(shops[1]).toEqual({
      _class: ['shop'],
      id: '2',
      name: 'Copper Kettle Kitchen',
      subdomain: 'copper-kettle',
      url: 'https://copper-kettle.storefront.example/',
      currency_code: 'EUR',
      updated_on: t.server.store.get('shops', '2')!.updated_on,
      _links: { self: { href: `${t.base}/shops/2.json` } },
    });
  });

  it('leaves out the admin-only links for a public token', async () => {
    const root = await t.json('', { token: t.publicToken, status: 200 });
    expect(root.scopes).toBe('public');
    expect(Object.keys(root._links)).toEqual([
      'curies',
      'self',
      'svc:all_products',
      'svc:product',
      'svc:shops',
      'svc:shop',
      'service-desc',
      'service-doc',
    ]);
  });

  it('is the same with and without the .json suffix, and at {base_url}/', async () => {
    const a = await t.call('');
    const b = await t.call('.json');
    const c = await t.call('/');
    expect(b.status).toBe(200);
    expect(c.status).toBe(200);
    expect(await b.text()).toBe(await a.text());
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
    expect(c.headers.get('etag')).toBe(a.headers.get('etag'));
  });

  it('differs per token scope: the representation and its validator', async () => {
    const admin = await t.call('');
    const pub = await t.call('', { token: t.publicToken });
    expect(admin.headers.get('x-oauth-scopes')).toBe('admin');
    expect(pub.headers.get('x-oauth-scopes')).toBe('public');
    expect(pub.headers.get('etag')).not.toBe(admin.headers.get('etag'));
  });

  it('asks for a token (401) when none or a bad one is sent', async () => {
    const none = await t.call('', { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="storefront"');
    expect(await none.json()).toEqual({
      _class: ['errors'],
      message: expect.stringContaining('access token'),
      request_id: none.headers.get('x-request-id'),
    });

    const bad = await t.call('', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="storefront", error="invalid_token"');
    expect((await bad.json())._class).toEqual(['errors']);
  });
});
