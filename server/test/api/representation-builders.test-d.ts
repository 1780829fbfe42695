/**
 * The server's representations are built against the SDK's contract: a field or relation the contract does not
 * give a representation, one it gives that is missing, or an embedded representation of the wrong kind is a type
 * error in `server/src/api`, so that renaming a field in `sdk/src/contract` breaks the server's compilation.
 * Checked by `npm run typecheck` (tsc), like the SDK's type tests.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { CLASS_OF, type Hal, link, resource, results } from '../../src/api/hal.js';

const summary = { id: '1', name: 'Tea', subdomain: 'tea', url: 'https://tea.example', currency_code: 'EUR' };
const shop = { ...summary, updated_on: '2026-01-01T00:00:00.000Z' };
const variant = { id: '1', title: 'Small', sku: 'S', stock: 1, price: 100 };

describe('representation builders', () => {
  it('take exactly the fields of the representation the contract declares', () => {
    expectTypeOf(resource('shopSummary', shop)).toEqualTypeOf<Hal<'shopSummary'>>();
    // @ts-expect-error a field the contract does not name (a misspelling, or the old name after a rename)
    resource('shopSummary', { ...shop, updated_at: shop.updated_on });
    // @ts-expect-error a field the contract names is missing
    resource('shopSummary', summary);
    const withExtra = { ...shop, owner_id: '7' };
    // @ts-expect-error an extra member is refused even when it does not come as an object literal
    resource('shopSummary', withExtra);
    // @ts-expect-error a field of the wrong type
    resource('productVariant', { ...variant, price: '1.00' });
  });

  it('take only the relations the contract gives the representation', () => {
    resource('shop', { ...shop, description: '', locale: 'en' }, { 'svc:theme': link('svc:theme', '/t') });
    // @ts-expect-error a summary has no `svc:theme`
    resource('shopSummary', shop, { 'svc:theme': link('svc:theme', '/t') });
  });

  it('embed the representations the contract names', () => {
    const variants = [resource('productVariant', variant)];
    const fields = {
      id: '1',
      title: 'Mug',
      slug: 'mug',
      price: 100,
      status: 'visible' as const,
      updated_on: shop.updated_on,
      description: '',
      price_comparison: null,
      vendor: '',
      tags: [],
      stock: 1,
      created_on: shop.updated_on,
      currency_code: 'EUR',
    };
    resource('product', fields, {}, { variants, shop: [resource('shopSummary', shop)] });
    // @ts-expect-error `shop` embeds a shop summary, not a variant
    resource('product', fields, {}, { variants, shop: variants });
    const page = { total_items: 1, page: 1, per_page: 30 };
    results('productVariant', page, {}, variants);
    // @ts-expect-error a results entity of shop summaries holds no variants
    results('shopSummary', page, {}, variants);
  });

  it('name each representation by the `_class` the contract gives it', () => {
    expectTypeOf(CLASS_OF.shopSummary).toEqualTypeOf<'shop'>();
    expectTypeOf(CLASS_OF.themeTemplate).toEqualTypeOf<'themeTemplate'>();
  });
});
