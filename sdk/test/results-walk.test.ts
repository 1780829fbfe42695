/**
 * `results.items()` against the reference server while products are created and deleted under the walk: it
 * follows the server's `next` links, whose cursors make the walk stable (no duplicate, none missed that
 * existed throughout, the order kept), and the SDK needs nothing else for it.
 */
import type { ProductSort } from '@storefront-platform/sdk';
import type { ProductRow } from '@storefront-platform/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Churn, startChurn } from '../../test/support/product-churn.js';
import { type ReferenceServer, startReferenceServer } from './helpers/reference-server.js';

let reference: ReferenceServer;
beforeAll(async () => {
  reference = await startReferenceServer({ products: 600 });
});
afterAll(() => reference?.server.close());

/** What the demo admin sees of the products: all of shops 1 and 2, the visible ones of shop 3. */
const listed = (row: ProductRow) => row.shop_id !== '3' || row.status === 'visible';

describe('items() while 200 products are created and 200 deleted', () => {
  it.each<ProductSort>(['updated_on.desc', 'created_on.asc', 'title.asc', 'price.desc'])(
    'by %s: each product once, none missed that existed throughout, in order',
    async (sort) => {
      let churn: Churn | undefined;
      // Each page the SDK receives lets the churn write on while the walk asks for the next.
      const client = reference.client({
        fetch: async (input, init) => {
          const url = input instanceof Request ? input.url : String(input);
          const response = await fetch(input, init);
          if (url.includes('/products.json')) await churn?.page();
          return response;
        },
      });
      const list = await (await client.root()).follow('svc:all_products', { sort, per_page: 20 });
      expect(list.properties.total_items).toBe(reference.server.store.all('products').filter(listed).length);
      churn = startChurn(reference.server.store, listed, { seed: sort.length });
      await churn.page();
      const ids: string[] = [];
      for await (const product of list.items()) ids.push(product.properties.id);
      expect(churn.written).toBeGreaterThan(300);
      await churn.finish();
      churn.check(ids, sort);
    },
  );
});
