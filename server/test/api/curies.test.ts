/**
 * HAL curies: every top-level document (root, detail, results page, theme, template, asset) declares `svc`
 * in its `_links`, so that a client can expand the relations of whatever document it holds; embedded
 * resources inherit them and declare none; error bodies have no links at all.
 */
import { describe, expect, it } from 'vitest';
import { png } from '../../src/seed/images.js';
import { type Doc, useThemeServer } from '../themes/fixture.js';

const t = useThemeServer();

const expected = () => [{ name: 'svc', href: `${t.server.origin}/rels/{rel}`, templated: true }];

/** Every embedded resource of `document`, at any depth. */
function* embedded(document: Doc): Generator<Doc> {
  for (const value of Object.values((document._embedded ?? {}) as Record<string, Doc | Doc[]>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      yield item;
      yield* embedded(item);
    }
  }
}

function expectTopLevel(document: Doc): void {
  expect(document._links.curies).toEqual(expected());
  expect(Object.keys(document._links)[0]).toBe('curies');
  for (const item of embedded(document)) {
    expect(item._links?.curies, JSON.stringify(item._class)).toBeUndefined();
  }
}

describe('curies', () => {
  it('lead the links of every document read, and of none of their embedded resources', async () => {
    const product = t.server.store.where('products', 'shop_id', '1')[0]!;
    const order = t.server.store.where('orders', 'shop_id', '1')[0]!;
    const theme = await t.json('/shops/1/theme.json', { status: 200 });
    const template = (theme._embedded.templates as Doc[])[0]!;
    const paths = [
      '',
      '/shops',
      '/shops/1.json',
      '/products?per_page=5',
      `/shops/1/products/${product.id}.json`,
      '/orders?per_page=5',
      `/shops/1/orders/${order.id}.json`,
      '/themes/1',
      template._links.self.href as string,
    ];
    expectTopLevel(theme);
    expect(theme._embedded.templates.length).toBeGreaterThan(0);
    for (const path of paths) expectTopLevel(await t.json(path, { status: 200 }));
  });

  it('lead the links of the documents that writes answer with', async () => {
    const theme = await t.json('/shops/1/theme.json');
    const created = await t.json(theme._links['svc:create_template'].href, {
      method: 'POST',
      json: { file_name: 'curies.html', body: '<p>curies</p>' },
      status: 201,
    });
    expectTopLevel(created);
    const updated = await t.json(created._links.self.href, { method: 'PUT', json: { body: '<p>2</p>' }, status: 200 });
    expectTopLevel(updated);
    const bytes = new Uint8Array(png(4, 4, () => [0, 0, 0]));
    const asset = await t.json(theme._links['svc:create_theme_asset'].href, {
      method: 'POST',
      json: { file_name: 'curies.png', data: Buffer.from(bytes).toString('base64') },
      status: 201,
    });
    expectTopLevel(asset);
    expectTopLevel(await t.json(theme._links['svc:update_theme'].href, { method: 'PUT', json: {}, status: 200 }));
    expectTopLevel(await t.json(theme._links['svc:create_dev_theme'].href, { method: 'POST', status: 201 }));
  });

  it('expand every svc: relation of a document to its documentation page', async () => {
    const theme = await t.json('/shops/1/theme.json');
    const [curie] = theme._links.curies as { href: string }[];
    const rels = Object.keys(theme._links).filter((rel) => rel.startsWith('svc:'));
    expect(rels.length).toBeGreaterThan(3);
    for (const rel of rels) {
      const response = await fetch(curie!.href.replace('{rel}', rel.slice('svc:'.length)));
      expect(response.status, rel).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('are not part of error bodies', async () => {
    const error = await t.json('/shops/999.json', { status: 404 });
    expect(error).toEqual({ _class: ['errors'], message: expect.any(String), request_id: expect.any(String) });
  });
});
