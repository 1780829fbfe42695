import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../src/store/memory.js';
import type { ThemeRow } from '../src/store/types.js';

function theme(id: string, shop_id: string, production = true): ThemeRow {
  return {
    id,
    shop_id,
    title: `Theme ${id}`,
    production,
    settings: {},
    preview_key: `key-${id}`,
    created_on: '',
    updated_on: '',
  };
}

describe('memory store', () => {
  it('reads rows synchronously, in insertion order, by id and through indexes', () => {
    const store = createMemoryStore({ themes: [theme('a', 's1'), theme('b', 's2'), theme('c', 's1', false)] });
    expect(store.get('themes', 'b')?.shop_id).toBe('s2');
    expect(store.get('themes', 'zz')).toBeUndefined();
    expect(store.all('themes').map((t) => t.id)).toEqual(['a', 'b', 'c']);
    expect(store.where('themes', 'shop_id', 's1').map((t) => t.id)).toEqual(['a', 'c']);
    expect(store.where('themes', 'production', false).map((t) => t.id)).toEqual(['c']);
    expect(store.where('themes', 'shop_id', 'none')).toEqual([]);
    expect(store.all('users')).toEqual([]);
  });

  it('keeps indexes up to date through inserts, updates that move rows and deletes', async () => {
    const store = createMemoryStore({ themes: [theme('a', 's1'), theme('b', 's2'), theme('c', 's1')] });
    expect(store.where('themes', 'shop_id', 's1').map((t) => t.id)).toEqual(['a', 'c']);
    await store.write((tx) => {
      tx.insert('themes', theme('d', 's1'));
      tx.update('themes', 'b', { shop_id: 's1' });
      tx.delete('themes', 'c');
    });
    // b moved into s1's bucket at its insertion place, not at the end.
    expect(store.where('themes', 'shop_id', 's1').map((t) => t.id)).toEqual(['a', 'b', 'd']);
    expect(store.where('themes', 'shop_id', 's2')).toEqual([]);
    expect(store.all('themes').map((t) => t.id)).toEqual(['a', 'b', 'd']);
    expect(store.get('themes', 'c')).toBeUndefined();
  });

  it('never changes arrays it handed out: a write replaces them', async () => {
    const store = createMemoryStore({ themes: [theme('a', 's1')] });
    const all = store.all('themes');
    const where = store.where('themes', 'shop_id', 's1');
    await store.write((tx) => {
      tx.insert('themes', theme('b', 's1'));
      tx.update('themes', 'a', { title: 'New' });
    });
    expect(all.map((t) => `${t.id}:${t.title}`)).toEqual(['a:Theme a']);
    expect(where.map((t) => `${t.id}:${t.title}`)).toEqual(['a:Theme a']);
    expect(store.where('themes', 'shop_id', 's1').map((t) => `${t.id}:${t.title}`)).toEqual(['a:New', 'b:Theme b']);
  });

  it('keeps indexes right through a bulk write', async () => {
    const store = createMemoryStore();
    expect(store.where('themes', 'shop_id', 's1')).toEqual([]);
    await store.write((tx) => {
      for (let i = 0; i < 200; i++) tx.insert('themes', { ...theme('', `s${i % 2}`), id: undefined });
    });
    expect(store.where('themes', 'shop_id', 's1')).toHaveLength(100);
    expect(store.where('themes', 'shop_id', 's0')[0]?.id).toBe('1');
  });

  it('assigns string ids from a per-collection sequence that skips ids already taken', async () => {
    const store = createMemoryStore({ themes: [theme('2', 's1')] });
    const ids = await store.write((tx) => [
      tx.insert('themes', { ...theme('', 's1'), id: undefined }).id,
      tx.insert('shops', {
        owner_id: '1',
        name: 'x',
        subdomain: 'x',
        description: '',
        locale: 'en',
        currency_code: 'EUR',
        public: false,
        created_on: '',
        updated_on: '',
      }).id,
      tx.insert('themes', { ...theme('', 's1'), id: undefined }).id,
    ]);
    expect(ids).toEqual(['3', '1', '4']);
    await expect(store.write((tx) => tx.insert('themes', theme('3', 's9')))).rejects.toThrow(/already has/);
  });

  it('lets reads inside a write see its staged changes, and others only once committed', async () => {
    const store = createMemoryStore({ themes: [theme('a', 's1')] });
    const seen = await store.write((tx) => {
      tx.insert('themes', theme('b', 's1'));
      tx.update('themes', 'a', { title: 'Renamed' });
      expect(store.get('themes', 'b')).toBeUndefined();
      return {
        get: tx.get('themes', 'b')?.id,
        title: tx.get('themes', 'a')?.title,
        where: tx.where('themes', 'shop_id', 's1').map((t) => `${t.id}:${t.title}`),
      };
    });
    expect(seen).toEqual({ get: 'b', title: 'Renamed', where: ['a:Renamed', 'b:Theme b'] });
    expect(store.get('themes', 'a')?.title).toBe('Renamed');
  });

  it('applies nothing when the write function throws, and carries on with the next write', async () => {
    const store = createMemoryStore({ themes: [theme('a', 's1')] });
    const before = store.revision('themes');
    await expect(
      store.write((tx) => {
        tx.insert('themes', theme('b', 's1'));
        tx.update('themes', 'a', { title: 'Changed' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(store.all('themes').map((t) => t.title)).toEqual(['Theme a']);
    expect(store.revision('themes')).toBe(before);
    await store.write((tx) => tx.delete('themes', 'a'));
    expect(store.all('themes')).toEqual([]);
  });

  it('bumps the revision of changed collections only', async () => {
    const store = createMemoryStore({ themes: [theme('a', 's1')] });
    const themes = store.revision('themes');
    const shops = store.revision('shops');
    await store.write((tx) => tx.update('themes', 'a', { title: 'x' }));
    await store.write((tx) => tx.get('themes', 'a'));
    expect(store.revision('themes')).toBe(themes + 1);
    expect(store.revision('shops')).toBe(shops);
  });

  it('runs writes one at a time, in order, so that read-modify-write loses no update', async () => {
    const store = createMemoryStore({ themes: [theme('a', 's1')] });
    await Promise.all(
      Array.from({ length: 50 }, () =>
        store.write((tx) => {
          const count = Number(tx.get('themes', 'a')!.settings.count ?? 0);
          tx.update('themes', 'a', { settings: { count: count + 1 } });
        }),
      ),
    );
    expect(store.get('themes', 'a')?.settings.count).toBe(50);
  });

  it('rejects an update of a missing row, changes through an ended transaction, and writes after close', async () => {
    const store = createMemoryStore();
    await expect(store.write((tx) => tx.update('themes', 'nope', { title: 'x' }))).rejects.toThrow(/no row/);
    let leaked: Parameters<Parameters<typeof store.write>[0]>[0] | undefined;
    await store.write((tx) => {
      leaked = tx;
    });
    expect(() => leaked!.insert('themes', theme('z', 's1'))).toThrow(/ended/);
    await store.close();
    await expect(store.write(() => 1)).rejects.toThrow(/closed/);
  });
});
