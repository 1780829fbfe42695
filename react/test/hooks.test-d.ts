/** The hooks' types come from the SDK's contract: relation names, their variables, what they lead to. */
import {
  type ActionError,
  useAction,
  useFollow,
  usePages,
  useResource,
  useSuspenseFollow,
} from '@storefront-platform/react';
import type {
  Product,
  ProductList,
  ProductSummary,
  Root,
  Shop,
  Template,
  Theme,
  UpdateTemplateBody,
} from '@storefront-platform/sdk';
import { expectTypeOf, it } from 'vitest';

declare const root: Root;
declare const shop: Shop;
declare const summary: ProductSummary;
declare const template: Template;

it('types reads by the relation followed', () => {
  function Reads() {
    expectTypeOf(useFollow(shop, 'svc:theme').data).toEqualTypeOf<Theme | undefined>();
    // Prefixed or not, one relation.
    expectTypeOf(useFollow(shop, 'theme').data).toEqualTypeOf<Theme | undefined>();
    expectTypeOf(useFollow(shop, 'svc:products', { q: 'mug' }).data).toEqualTypeOf<ProductList | undefined>();
    expectTypeOf(useSuspenseFollow(root, 'svc:shop', { id: 1 }).data).toEqualTypeOf<Shop>();
    expectTypeOf(useResource(summary).data).toEqualTypeOf<Product | undefined>();
    expectTypeOf(usePages(shop, 'svc:products').items).toEqualTypeOf<ProductSummary[]>();
    // @ts-expect-error: svc:shop needs its id
    useFollow(root, 'svc:shop');
    // @ts-expect-error: no such variable
    useFollow(shop, 'svc:products', { colour: 'red' });
    // @ts-expect-error: a shop has no such relation
    useFollow(shop, 'svc:frobnicate');
    // @ts-expect-error: a PUT link is a write (useAction), not a read
    useFollow(template, 'svc:update_template', { body: '<p>x</p>' });
    // @ts-expect-error: likewise for lists
    usePages(template, 'svc:update_template');
    // The read hooks take TanStack's query options.
    usePages(shop, 'svc:products', {}, { refetchInterval: 1000, retry: 1, placeholderData: undefined });
    useFollow(shop, 'svc:theme', undefined, { refetchInterval: 1000, retry: false });
    return null;
  }
  expectTypeOf(Reads).toBeFunction();
});

it('types writes by their body, result and errors', () => {
  function Writes() {
    const save = useAction(template, 'svc:update_template', { ifMatch: true });
    // The body is optional as a whole (every field is): mutate() alone type-checks too.
    expectTypeOf<UpdateTemplateBody>().toExtend<Parameters<typeof save.mutate>[0]>();
    expectTypeOf<Parameters<typeof save.mutate>[0]>().not.toExtend<{ body: number }>();
    expectTypeOf(save.data).toEqualTypeOf<Template | undefined>();
    expectTypeOf(save.error).toEqualTypeOf<ActionError | null>();
    // @ts-expect-error: a template's body is a string
    save.mutate({ body: 42 });
    // @ts-expect-error: svc:theme is a GET link: a read (useFollow), not a write
    useAction(shop, 'svc:theme');
    // A misuse the SDK refuses before sending (ifMatch: true on an embedded entity, without an ETag) is a TypeError.
    expectTypeOf<TypeError>().toExtend<ActionError>();
    return null;
  }
  expectTypeOf(Writes).toBeFunction();
});
