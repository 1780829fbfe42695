/**
 * Stores over shared tables (MSW's mocks): each reads the shared tables and writes to copies of its own. What every
 * store does, this one included, is the store contract's (`store/contract.ts`).
 */
import { describe, expect, it } from 'vitest';
import { createSharingStore } from '../src/store/engine.js';
import { SharedTables } from '../src/store/shared-tables.js';
import type { ProductRow } from '../src/store/types.js';

const product = (id: string, shop_id: string, title = `Product ${id}`) => ({ id, shop_id, title }) as ProductRow;

function shared() {
  return new SharedTables({ products: [product('1', 's1'), product('2', 's2'), product('3', 's1')] });
}

describe('stores over shared tables', () => {
  it('read the same tables until one writes; the writer sees its change, the others never do', async () => {
    const tables = shared();
    const [a, b] = [createSharingStore(tables), createSharingStore(tables)];
    expect(a.all('products')).toBe(b.all('products'));
    expect(a.where('products', 'shop_id', 's1').map((p) => p.id)).toEqual(['1', '3']);

    const inserted = await a.write((tx) => {
      tx.update('products', '1', { shop_id: 's2' });
      tx.delete('products', '2');
      return tx.insert('products', { shop_id: 's1', title: 'New' } as Omit<ProductRow, 'id'>);
    });
    expect(inserted.id).toBe('4');
    expect(a.where('products', 'shop_id', 's1').map((p) => p.id)).toEqual(['3', '4']);
    expect(a.revision('products')).toBe(1);

    expect(b.all('products').map((p) => [p.id, p.shop_id])).toEqual([
      ['1', 's1'],
      ['2', 's2'],
      ['3', 's1'],
    ]);
    expect(b.where('products', 'shop_id', 's1').map((p) => p.id)).toEqual(['1', '3']);
    expect(b.revision('products')).toBe(0);
    // Ids come from each store's own sequence: the other's insert took none of them.
    const other = await b.write((tx) => tx.insert('products', { shop_id: 's3', title: 'B' } as Omit<ProductRow, 'id'>));
    expect(other.id).toBe('4');
    expect(createSharingStore(tables).all('products')).toHaveLength(3);
  });

  it('check() fails on a duplicate id when asked, not on the first request', () => {
    const tables = new SharedTables({ products: [product('1', 's1'), product('1', 's2')] });
    expect(() => tables.check()).toThrow('Duplicate id "1"');
  });

  it('an aborted write changes nothing in the shared table, its id sequence included', async () => {
    const tables = shared();
    const store = createSharingStore(tables);
    await expect(
      store.write((tx) => {
        tx.update('products', '1', { title: 'Lost' });
        tx.insert('products', { shop_id: 's1', title: 'Lost' } as Omit<ProductRow, 'id'>);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const other = createSharingStore(tables);
    expect(other.all('products').map((p) => p.title)).toEqual(['Product 1', 'Product 2', 'Product 3']);
    const next = await other.write((tx) =>
      tx.insert('products', { shop_id: 's1', title: 'Kept' } as Omit<ProductRow, 'id'>),
    );
    expect(next.id).toBe('4');
  });
});
