import {
  BadRequestError,
  bearer,
  type Client,
  createClient,
  createHttpCache,
  Entity,
  NotFoundError,
  PreconditionFailedError,
  Results,
  type Root,
  type Shop,
  type Template,
  type Theme,
  UnauthorizedError,
  ValidationError,
} from '@storefront-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer, startReferenceServer } from './helpers/reference-server.js';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let reference: ReferenceServer;
let client: Client;
let root: Root;
let shop: Shop;

beforeAll(async () => {
  reference = await startReferenceServer({ products: 45 });
  client = reference.client();
  root = await client.root();
  const summary = root.embedded('shops')[0];
  if (!summary) throw new Error('the demo user administers no shop');
  shop = await summary.follow('self');
});

afterAll(() => reference?.server.close());

describe('root', () => {
  it('is typed and linked', async () => {
    expect(root._class).toEqual(['root']);
    expect(root.properties.scopes).toBe('admin');
    expect((await root.follow('self')).properties.user_name).toBe(root.properties.user_name);
  });

  it('reaches shops by list and by id, with integer or string ids', async () => {
    const shops = await root.follow('svc:shops', { per_page: 2 });
    expect(shops).toBeInstanceOf(Results);
    expect(shops.properties.total_items).toBeGreaterThan(0);
    const byNumber = await root.follow('shop', { id: Number(shop.properties.id) });
    const byString = await root.follow('svc:shop', { id: shop.properties.id });
    expect(byNumber.properties).toEqual(byString.properties);
  });

  it('walks every product page through next, and first/last/prev', async () => {
    const list = await root.follow('svc:all_products', { per_page: 10 });
    const total = list.properties.total_items;
    const ids = new Set<string>();
    let pages = 0;
    for await (const page of list.pages()) {
      pages++;
      for (const item of page.pageItems) ids.add(item.properties.id);
    }
    expect(ids.size).toBe(total);
    expect(pages).toBe(Math.ceil(total / 10));
    const last = await list.follow('last');
    expect(last.properties.page).toBe(pages);
    expect((await last.follow('prev')).properties.page).toBe(pages - 1);
    expect((await last.follow('first')).properties.page).toBe(1);
    expect(await list.take(12)).toHaveLength(12);
  });

  it('filters through the template and reaches a product detail from its summary and by id', async () => {
    const [summary] = await (await root.follow('all_products', { shop_ids: [shop.properties.id], per_page: 1 })).take(
      1,
    );
    expect(summary).toBeDefined();
    const detail = await summary!.follow('self');
    expect(detail._class).toEqual(['product']);
    expect(detail.properties.title).toBe(summary!.properties.title);
    const byId = await root.follow('svc:product', { shop_id: shop.properties.id, id: detail.properties.id });
    expect(byId.properties.id).toBe(detail.properties.id);
    expect(detail.embedded('variants').length).toBeGreaterThan(0);
    expect((await detail.follow('svc:shop')).properties.id).toBe(shop.properties.id);
  });

  it('reaches orders by list and by id', async () => {
    const [summary] = await (await root.follow('svc:all_orders', { per_page: 5 })).take(1);
    expect(summary).toBeDefined();
    const order = await summary!.follow('self');
    expect(order.embedded('line_items').length).toBeGreaterThan(0);
    const shopOfOrder = await order.follow('svc:shop');
    const byId = await root.follow('svc:order', { shop_id: shopOfOrder.properties.id, id: order.properties.id });
    expect(byId.properties.code).toBe(order.properties.code);
  });

  it('maps the server refusals to typed errors', async () => {
    await expect(root.follow('svc:shop', { id: 'no-such-shop' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(root.follow('svc:all_products', { per_page: 1000 })).rejects.toBeInstanceOf(BadRequestError);
    const stranger = createClient({ baseUrl: reference.server.baseUrl, auth: bearer('not-a-token'), retry: false });
    const refused = await stranger.root().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect((refused as UnauthorizedError).headers['www-authenticate']).toMatch(/invalid_token/);
    expect((refused as UnauthorizedError).message).not.toContain('not-a-token');
  });
});

describe('shop', () => {
  it("lists the shop's products and orders and opens its storefront page", async () => {
    const products = await shop.follow('svc:products', { per_page: 3 });
    expect(products.pageItems.length).toBeGreaterThan(0);
    const orders = await shop.follow('orders');
    expect(orders).toBeInstanceOf(Results);
    expect(shop.link('svc:web').type).toBe('text/html');
    expect(shop.link('svc:web').expand()).toBe(shop.properties.url);
  });
});

describe('theme', () => {
  let theme: Theme;
  beforeAll(async () => {
    theme = await shop.follow('svc:theme');
  });

  it('embeds templates and assets and previews as HTML', async () => {
    expect(theme.properties.production).toBe(true);
    expect(theme.embedded('templates').map((t) => t.properties.file_name)).toContain('layout.html');
    const preview = await theme.follow('svc:theme_preview');
    expect(preview).toBeInstanceOf(Response);
    expect(preview.headers.get('content-type')).toMatch(/text\/html/);
    expect(await preview.text()).toMatch(/<html/i);
    expect((await theme.follow('svc:shop')).properties.id).toBe(shop.properties.id);
  });

  it('updates its settings and reads itself back', async () => {
    const updated = await theme.follow('update_theme', { title: 'Renamed', settings: { accent: '#123456' } });
    expect(updated.properties.title).toBe('Renamed');
    expect((await updated.follow('self')).properties.settings).toEqual({ accent: '#123456' });
  });

  it('creates, updates and deletes a template, with the lost-update guard as a ValidationError', async () => {
    const created = await theme.follow('svc:create_template', { file_name: 'sdk-test.html', body: '<p>one</p>' });
    expect(created.properties).toMatchObject({ name: 'sdk-test', content_type: 'html', body: '<p>one</p>' });
    const updated = await created.follow('update_template', { body: '<p>two</p>' });
    expect((await updated.follow('self')).properties.body).toBe('<p>two</p>');
    const stale = created.follow('svc:update_template', { body: 'x', last_updated_on: 1 });
    await expect(stale).rejects.toBeInstanceOf(ValidationError);
    await expect(stale).rejects.toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ field: 'updated_on' })],
    });
    await expect(updated.follow('svc:delete_template')).resolves.toBeUndefined();
    await expect(updated.follow('self')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('restores a template saved with toJSON: its links work again, with no request until followed', async () => {
    const created = await theme.follow('svc:create_template', { file_name: 'restored.html', body: '<p>one</p>' });
    const saved = JSON.parse(JSON.stringify(created));
    const requests: string[] = [];
    const counting = reference.client({ on: { request: ({ method, url }) => requests.push(`${method} ${url}`) } });
    const restored = counting.restore<Template>(saved, created.response!.url);
    expect(restored).toBeInstanceOf(Entity);
    expect(restored.properties.body).toBe('<p>one</p>');
    expect(requests).toEqual([]);
    const updated = await restored.follow('svc:update_template', { body: '<p>two</p>' });
    expect(updated.properties.body).toBe('<p>two</p>');
    expect(requests).toEqual([`PUT ${created.link('self').expand()}`]);
    // Relative links resolve against the URL given; a results page is a Results.
    const relative = client.restore<Template>(
      { _links: { self: { href: 'restored' } } },
      created.link('self').expand(),
    );
    expect(relative.link('self').expand()).toMatch(/\/templates\/restored$/);
    const page = client.restore({ _class: ['results'], _embedded: { items: [] } }, reference.server.baseUrl);
    expect(page).toBeInstanceOf(Results);
    await updated.follow('svc:delete_template');
  });

  it('does not offer to delete the required layout template', async () => {
    const layout = theme.embedded('templates').find((t) => t.properties.file_name === 'layout.html')!;
    expect(layout.can('svc:delete_template')).toBe(false);
    expect(() => layout.link('delete_template')).toThrowError(/No relation "delete_template"/);
  });

  it('uploads an asset, serves its file and deletes it', async () => {
    const asset = await theme.follow('svc:create_theme_asset', { file_name: 'dot.png', data: PNG });
    expect(asset.properties).toMatchObject({ file_name: 'dot.png', content_type: 'image/png', file_size: 70 });
    expect(asset.can('self')).toBe(false);
    const file = await asset.follow('file');
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toHaveLength(70);
    await expect(asset.follow('svc:delete_theme_asset')).resolves.toBeUndefined();
  });

  it('creates the development theme once, then links it', async () => {
    const production = await theme.follow('self');
    expect(production.can('svc:dev_theme')).toBe(false);
    const dev = await production.follow('svc:create_dev_theme');
    expect(dev.properties.production).toBe(false);
    const after = await production.follow('self');
    expect(after.can('dev_theme')).toBe(true);
    expect(after.can('create_dev_theme')).toBe(false);
    expect((await after.follow('dev_theme')).properties.id).toBe(dev.properties.id);
  });
});

describe('with the HTTP cache', () => {
  it('revalidates the theme with a 304 and sees a change made by another client', async () => {
    const cached = reference.client({ cache: createHttpCache() });
    const other = reference.client();
    const cachedShop = (await cached.root()).embedded('shops')[0]!;
    const shopDetail = await cachedShop.follow('self');
    const first = await shopDetail.follow('svc:theme');
    const again = await shopDetail.follow('svc:theme');
    expect(again.response?.revalidated).toBe(true);
    expect(again.properties).toEqual(first.properties);

    const template = first.embedded('templates')[0]!;
    const fresh = await template.follow('self');
    const elsewhere = await (await other.root())
      .embedded('shops')[0]!
      .follow('self')
      .then((s) => s.follow('svc:theme'))
      .then((t) =>
        t
          .embedded('templates')
          .find((x) => x.properties.id === fresh.properties.id)!
          .follow('self'),
      );
    await elsewhere.follow('update_template', { body: `${fresh.properties.body}\n<!-- changed elsewhere -->` });
    await expect(fresh.follow('update_template', { body: 'mine' }, { ifMatch: true })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    const reread = await fresh.follow('self');
    expect(reread.response?.revalidated).toBe(false);
    expect(reread.properties.body).toMatch(/changed elsewhere/);
  });
});

describe('If-Match', () => {
  it("guards a theme read through its shop with that response's ETag: 200, then a typed 412 once changed elsewhere", async () => {
    const sent: { method: string; headers: Record<string, string> }[] = [];
    const careful = reference.client({ on: { request: (event) => sent.push(event) } });
    const theme = await (await (await careful.root()).embedded('shops')[0]!.follow('self')).follow('svc:theme');
    const themeJson = theme.response!.url;
    expect(themeJson).toMatch(/\/shops\/\d+\/theme\.json$/);
    const self = theme.link('self').expand();
    expect(self).not.toBe(themeJson);
    expect(theme.link('svc:update_theme').expand()).toBe(self);
    // The same representation at both URLs, hence the same ETag.
    const etag = theme.response!.headers.get('etag')!;
    expect((await theme.follow('self')).response!.headers.get('etag')).toBe(etag);

    const updated = await theme.follow('svc:update_theme', { title: 'Guarded' }, { ifMatch: true });
    expect(updated.response!.status).toBe(200);
    expect(updated.properties.title).toBe('Guarded');
    expect(sent.at(-1)).toMatchObject({ method: 'PUT', headers: { 'if-match': etag } });

    const elsewhere = await (await (await reference.client().root()).embedded('shops')[0]!.follow('self')).follow(
      'svc:theme',
    );
    await elsewhere.follow('svc:update_theme', { title: 'Theirs' });
    const error = await updated
      .follow('svc:update_theme', { title: 'Mine' }, { ifMatch: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreconditionFailedError);
    expect(error).toMatchObject({ code: 'PRECONDITION_FAILED', status: 412, method: 'PUT', url: self });
    expect(sent.at(-1)?.headers['if-match']).toBe(updated.response!.headers.get('etag'));
    expect((await theme.follow('self')).properties.title).toBe('Theirs');
  });

  it('refuses ifMatch: true on an embedded template, and sends the tag given explicitly', async () => {
    const sent: { method: string; headers: Record<string, string> }[] = [];
    const careful = reference.client({ on: { request: (event) => sent.push(event) } });
    const theme = await (await (await careful.root()).embedded('shops')[0]!.follow('self')).follow('svc:theme');
    const embedded = theme.embedded('templates').find((t) => t.properties.file_name === 'layout.html')!;
    const body = embedded.properties.body;
    await expect(embedded.follow('svc:update_template', { body }, { ifMatch: true })).rejects.toThrow(TypeError);
    expect(sent.map((event) => event.method)).not.toContain('PUT');
    await expect(
      embedded.follow('svc:update_template', { body }, { ifMatch: '"not-the-current-tag"' }),
    ).rejects.toBeInstanceOf(PreconditionFailedError);
  });
});

describe('scopes', () => {
  it('hides admin relations from a public token', async () => {
    const publicRoot = await reference.client({ scope: 'public' }).root();
    expect(publicRoot.can('svc:all_orders')).toBe(false);
    expect(publicRoot).toBeInstanceOf(Entity);
  });
});
