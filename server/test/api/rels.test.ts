import { describe, expect, it } from 'vitest';
import { relationEntry, relationNames } from '../../src/api/registry.js';
import { type Doc, useThemeServer } from '../themes/fixture.js';

const t = useThemeServer();

describe('relation pages', () => {
  it.each(relationNames())('documents %s at the curie’s expansion', async (rel) => {
    const root = await t.json('');
    const href = (root._links.curies[0].href as string).replace('{rel}', rel.slice('svc:'.length));
    const response = await fetch(href);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    const entry = relationEntry(rel)!;
    expect(html).toContain(`<h1><code>${rel}</code></h1>`);
    expect(html).toContain(`<code>${entry.method.toUpperCase()}</code>`);
    expect(html).toContain('<h2>Example</h2>');
  });

  it('is 404 for an unknown relation, without a token', async () => {
    const response = await fetch(`${t.server.origin}/rels/no_such_rel`);
    expect(response.status).toBe(404);
    expect((await response.json())._class).toEqual(['errors']);
  });
});

describe('links follow the registry', () => {
  /** Every link of a representation and its embedded resources, with its relation name. */
  function* links(resource: Doc): Generator<[string, Doc]> {
    for (const [rel, value] of Object.entries(resource._links ?? {})) {
      if (rel !== 'curies') yield [rel, value as Doc];
    }
    for (const value of Object.values(resource._embedded ?? {})) {
      for (const item of Array.isArray(value) ? value : [value]) yield* links(item as Doc);
    }
  }

  it('gives every svc: link the method, title and type of its registry entry, and a documentation page', async () => {
    const shop1 = await t.json('/shops/1');
    const product = await t.json(`/shops/1/products/${t.server.store.where('products', 'shop_id', '1')[0]!.id}`);
    const theme = await t.json('/shops/1/theme.json');
    const documents = [await t.json(''), shop1, product, theme, await t.json('/orders?per_page=1')];
    let checked = 0;
    for (const document of documents) {
      for (const [rel, link] of links(document)) {
        if (!rel.startsWith('svc:')) continue;
        const entry = relationEntry(rel);
        expect(entry, rel).toBeDefined();
        expect(link.method, rel).toBe(entry!.method === 'get' ? undefined : entry!.method);
        expect(link.title, rel).toBe(entry!.title);
        if (entry!.type) expect(link.type, rel).toBe(entry!.type);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
  });
});
