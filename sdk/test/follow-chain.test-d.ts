import type {
  Client,
  Entity,
  FollowPromise,
  Product,
  ProductList,
  Root,
  Shop,
  ShopList,
  Template,
  Theme,
} from '@storefront-platform/sdk';
import { describe, expectTypeOf, it } from 'vitest';

declare const client: Client;
declare const root: Root;
declare const unknown: Entity;

describe('typed follow chains', () => {
  it('types each hop as the entity of the hop before would type its follow', () => {
    expectTypeOf(client.root()).toEqualTypeOf<FollowPromise<Root>>();
    expectTypeOf(client.root()).resolves.toEqualTypeOf<Root>();
    expectTypeOf(client.root().follow('svc:shops')).resolves.toEqualTypeOf<ShopList>();
    expectTypeOf(client.root().follow('svc:shops').follow('next')).resolves.toEqualTypeOf<ShopList>();
    expectTypeOf(client.root().follow('svc:shop', { id: 7 }).follow('theme')).resolves.toEqualTypeOf<Theme>();
    expectTypeOf(
      root.follow('svc:product', { shop_id: 1, id: 2 }).follow('svc:shop').follow('svc:products', { q: 'boots' }),
    ).resolves.toEqualTypeOf<ProductList>();
    expectTypeOf(
      client.root().follow('svc:shop', { id: 7 }).follow('svc:theme').follow('svc:create_template', {
        file_name: 'a.html',
        body: '<p>',
      }),
    ).resolves.toEqualTypeOf<Template>();
    expectTypeOf(root.follow('svc:shop', { id: 7 })).resolves.toEqualTypeOf<Shop>();
    expectTypeOf(root.follow('svc:all_products').follow('first')).resolves.toEqualTypeOf<ProductList>();
  });

  it('is still a promise, for then, catch, finally and Promise.all', () => {
    expectTypeOf(client.root().follow('svc:shops')).toMatchTypeOf<Promise<ShopList>>();
    expectTypeOf(
      Promise.all([client.root(), root.follow('svc:product', { shop_id: 1, id: 2 })]),
    ).resolves.toEqualTypeOf<[Root, Product]>();
  });

  it('ends the chain where a relation leads to no entity', () => {
    const preview = client.root().follow('svc:shop', { id: 7 }).follow('svc:theme').follow('svc:theme_preview');
    expectTypeOf(preview).resolves.toEqualTypeOf<Response>();
    expectTypeOf(preview).not.toHaveProperty('follow');
    const deleted = root.follow('svc:shop', { id: 7 }).follow('svc:theme').follow('svc:dev_theme');
    expectTypeOf(deleted).resolves.toEqualTypeOf<Theme>();
  });

  it('keeps unknown classes chainable, untyped', () => {
    expectTypeOf(unknown.follow('a').follow('b', { any: 1 })).resolves.toEqualTypeOf<Entity>();
  });

  it('rejects what follow rejects, at any hop', () => {
    // @ts-expect-error: a shop list has no theme
    client.root().follow('svc:shops').follow('svc:theme');
    // @ts-expect-error: a typo in the relation name
    client.root().follow('svc:shop', { id: 7 }).follow('them');
    // @ts-expect-error: `svc:shop` needs `id`
    client.root().follow('svc:shop');
    // @ts-expect-error: create_template needs `body`
    root.follow('svc:shop', { id: 7 }).follow('svc:theme').follow('svc:create_template', { file_name: 'a.html' });
    // @ts-expect-error: a Response has no relations
    root.follow('svc:shop', { id: 7 }).follow('svc:web').follow('self');
  });
});
