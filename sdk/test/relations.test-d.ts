import type {
  Entity,
  Order,
  OrderList,
  Product,
  ProductList,
  ProductSummary,
  RelationKey,
  Results,
  Root,
  ShapeOf,
  Shop,
  ShopSummary,
  Template,
  Theme,
  ThemeAsset,
  UnknownShape,
} from '@storefront-platform/sdk';
import { describe, expectTypeOf, it } from 'vitest';

declare const root: Root;
declare const shop: Shop;
declare const theme: Theme;
declare const template: Template;
declare const asset: ThemeAsset;
declare const products: ProductList;
declare const unknown: Entity;
declare const item: ProductSummary;

describe('typed relations', () => {
  it('knows what each relation of the root returns, prefixed or not', () => {
    expectTypeOf(root.follow('svc:all_products')).resolves.toEqualTypeOf<ProductList>();
    expectTypeOf(
      root.follow('all_products', { q: 'red', shop_ids: [1, '2'], page: 2 }),
    ).resolves.toEqualTypeOf<ProductList>();
    expectTypeOf(root.follow('svc:shop', { id: 7 })).resolves.toEqualTypeOf<Shop>();
    expectTypeOf(root.follow('product', { shop_id: '1', id: 2 })).resolves.toEqualTypeOf<Product>();
    expectTypeOf(root.follow('svc:all_orders')).resolves.toEqualTypeOf<OrderList>();
    expectTypeOf(root.follow('svc:order', { shop_id: 1, id: 1 })).resolves.toEqualTypeOf<Order>();
    expectTypeOf(root.follow('self')).resolves.toEqualTypeOf<Root>();
    expectTypeOf(root.embedded('shops')).toEqualTypeOf<ShopSummary[]>();
    expectTypeOf(root.properties.user_name).toEqualTypeOf<string>();
  });

  it('offers the relation names for autocompletion', () => {
    expectTypeOf<RelationKey<ShapeOf<'theme'>>>().toEqualTypeOf<
      | 'self'
      | 'svc:update_theme'
      | 'svc:create_template'
      | 'svc:create_theme_asset'
      | 'svc:theme_preview'
      | 'svc:dev_theme'
      | 'svc:create_dev_theme'
      | 'svc:shop'
      | 'update_theme'
      | 'create_template'
      | 'create_theme_asset'
      | 'theme_preview'
      | 'dev_theme'
      | 'create_dev_theme'
      | 'shop'
    >();
  });

  it('types the bodies of write relations and what they return', () => {
    expectTypeOf(
      theme.follow('svc:create_template', { file_name: 'a.html', body: '<p>' }),
    ).resolves.toEqualTypeOf<Template>();
    expectTypeOf(theme.follow('update_theme', { title: 'New' })).resolves.toEqualTypeOf<Theme>();
    expectTypeOf(theme.follow('update_theme')).resolves.toEqualTypeOf<Theme>();
    expectTypeOf(
      theme.follow('svc:create_theme_asset', { file_name: 'a.png', data: 'iVBOR' }),
    ).resolves.toEqualTypeOf<ThemeAsset>();
    expectTypeOf(theme.follow('create_dev_theme')).resolves.toEqualTypeOf<Theme>();
    expectTypeOf(
      template.follow('svc:update_template', { body: 'x', last_updated_on: 1 }),
    ).resolves.toEqualTypeOf<Template>();
    expectTypeOf(template.follow('delete_template')).resolves.toEqualTypeOf<undefined>();
    expectTypeOf(asset.follow('svc:delete_theme_asset')).resolves.toEqualTypeOf<undefined>();
  });

  it('returns a Response for documents that are not JSON', () => {
    expectTypeOf(theme.follow('svc:theme_preview')).resolves.toEqualTypeOf<Response>();
    expectTypeOf(shop.follow('svc:web')).resolves.toEqualTypeOf<Response>();
    expectTypeOf(asset.follow('file')).resolves.toEqualTypeOf<Response>();
  });

  it('types embedded resources and fields', () => {
    expectTypeOf(theme.embedded('templates')).toEqualTypeOf<Template[]>();
    expectTypeOf(theme.embedded('assets')).toEqualTypeOf<ThemeAsset[]>();
    expectTypeOf(theme.properties.production).toEqualTypeOf<boolean>();
    expectTypeOf(template.properties.content_type).toEqualTypeOf<'html' | 'css' | 'js'>();
  });

  it('types results: items, pages, take and paging relations', () => {
    expectTypeOf(products.items()).toEqualTypeOf<AsyncGenerator<ProductSummary, void, undefined>>();
    expectTypeOf(products.pages()).toEqualTypeOf<AsyncGenerator<ProductList, void, undefined>>();
    expectTypeOf(products.take(3)).resolves.toEqualTypeOf<ProductSummary[]>();
    expectTypeOf(products.follow('next')).resolves.toEqualTypeOf<ProductList>();
    expectTypeOf(products.properties.total_items).toEqualTypeOf<number>();
    expectTypeOf(item.follow('self')).resolves.toEqualTypeOf<Product>();
    expectTypeOf(item.properties.price).toEqualTypeOf<number>();
  });

  it('keeps unknown classes usable, untyped', () => {
    expectTypeOf(unknown).toEqualTypeOf<Entity<UnknownShape>>();
    expectTypeOf(unknown.follow('anything', { any: 'thing' })).resolves.toEqualTypeOf<Entity>();
    expectTypeOf(unknown.properties.whatever).toEqualTypeOf<unknown>();
    expectTypeOf(unknown.embedded('x')).toEqualTypeOf<Entity[]>();
    expectTypeOf<Results>().toHaveProperty('items');
  });

  it('rejects a wrong relation name, a wrong body and missing variables', () => {
    // @ts-expect-error: a theme has no such relation
    theme.follow('svc:update_template');
    // @ts-expect-error: a typo in the relation name
    root.follow('all_product');
    // @ts-expect-error: create_template needs `body`
    theme.follow('svc:create_template', { file_name: 'a.html' });
    // @ts-expect-error: `title` is not a field of a template body
    theme.follow('create_template', { file_name: 'a.html', body: '', title: 'x' });
    // @ts-expect-error: `body` must be a string
    template.follow('update_template', { body: 42 });
    // @ts-expect-error: `svc:product` needs `shop_id` and `id`
    root.follow('svc:product');
    // @ts-expect-error: `shop_ids` is preset on a shop's product list
    shop.follow('svc:products', { shop_ids: 1 });
    // @ts-expect-error: `status` takes visible|hidden
    root.follow('svc:all_products', { status: 'draft' });
    // @ts-expect-error: `per_page` is a number
    products.follow('next', { per_page: '10' });
  });
});
