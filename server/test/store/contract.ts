/**
 * What every store adapter promises (the `Store` interface in `src/store/types.ts`), as tests to run over one
 * adapter: `describeStoreContract('my adapter', open)` in a test file of its own (see `contract.test.ts`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../../src/store/collections.js';
import { StoreError } from '../../src/store/errors.js';
import type { Dataset, Store } from '../../src/store/types.js';
import { file, newTemplate, newTheme, newToken, template, theme } from './rows.js';

/** A store an adapter opened for one test. */
export interface OpenedStore {
  store: Store;
  /** Durable adapters only: closes the store, opens its data again and resolves with the store now holding it. */
  reopen?: () => Promise<Store>;
  /** Releases the store (the last one `reopen` gave) and what it holds; called after each test, maybe twice. */
  close: () => Promise<void>;
}

/** Opens a fresh store of the adapter over `initial` (nothing: empty). */
export type OpenStore = (initial?: Partial<Dataset>) => Promise<OpenedStore>;

export interface ContractOptions {
  /** Whether the adapter keeps its data across a reopening (it must then give `reopen`). */
  durable?: boolean;
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

/** Every collection's rows, in order. */
const contents = (store: Store): Record<string, readonly unknown[]> =>
  Object.fromEntries(COLLECTIONS.map((name) => [name, store.all(name)]));

export function describeStoreContract(name: string, open: OpenStore, { durable = false }: ContractOptions = {}) {
  describe(`store contract: ${name}`, () => {
    const opened: OpenedStore[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((at) => at.close()));
    });

    async function start(initial?: Partial<Dataset>): Promise<OpenedStore> {
      const at = await open(initial);
      opened.push(at);
      // The durability tests run when `durable` says so: an adapter giving `reopen` without it would skip them.
      expect(at.reopen !== undefined, '`reopen` given exactly when the adapter is durable').toBe(durable);
      return at;
    }

    it('reads rows by id, all of a collection in insertion order, and those with a field equal to a value', async () => {
      const { store } = await start({ themes: [theme('a', 's1'), theme('b', 's2'), theme('c', 's1', false)] });
      expect(store.get('themes', 'b')).toEqual(theme('b', 's2'));
      expect(store.get('themes', 'zz')).toBeUndefined();
      expect(ids(store.all('themes'))).toEqual(['a', 'b', 'c']);
      expect(ids(store.where('themes', 'shop_id', 's1'))).toEqual(['a', 'c']);
      expect(ids(store.where('themes', 'production', false))).toEqual(['c']);
      expect(store.where('themes', 'shop_id', 'none')).toEqual([]);
      expect(store.all('users')).toEqual([]);
    });

    it('inserts rows with the id given, or the next of a per-collection sequence that skips ids taken', async () => {
      const { store } = await start({ themes: [theme('2', 's1')] });
      const inserted = await store.write((tx) => [
        tx.insert('themes', newTheme('s1')).id,
        tx.insert('templates', newTemplate('1', 'a.html')).id,
        tx.insert('themes', newTheme('s1')).id,
        tx.insert('themes', { ...newTheme('s2'), id: 'given' }).id,
      ]);
      expect(inserted).toEqual(['3', '1', '4', 'given']);
      expect(store.get('themes', 'given')).toEqual({ ...newTheme('s2'), id: 'given' });
      expect(ids(store.all('themes'))).toEqual(['2', '3', '4', 'given']);
    });

    it('refuses an id taken by a row, committed or staged, or an empty one, and applies nothing of that write', async () => {
      const { store } = await start({ themes: [theme('1', 's1')] });
      await expect(store.write((tx) => tx.insert('themes', theme('1', 's2')))).rejects.toThrow(StoreError);
      await expect(
        store.write((tx) => {
          tx.insert('themes', theme('x', 's1'));
          tx.insert('themes', theme('x', 's2'));
        }),
      ).rejects.toThrow(StoreError);
      await expect(store.write((tx) => tx.insert('themes', theme('', 's1')))).rejects.toThrow(StoreError);
      expect(store.all('themes')).toEqual([theme('1', 's1')]);
    });

    it('updates a row with a patch, keeping its id and its place; a missing row is refused', async () => {
      const { store } = await start({ themes: [theme('1', 's1'), theme('2', 's1')] });
      const updated = await store.write((tx) => tx.update('themes', '1', { title: 'New', settings: { a: 1 } }));
      expect(updated).toEqual({ ...theme('1', 's1'), title: 'New', settings: { a: 1 } });
      expect(store.get('themes', '1')).toEqual(updated);
      expect(ids(store.all('themes'))).toEqual(['1', '2']);
      await expect(store.write((tx) => tx.update('themes', 'nope', { title: 'x' }))).rejects.toThrow(StoreError);
    });

    it('deletes a row; deleting it again, or a row that never was, changes nothing', async () => {
      const { store } = await start({ themes: [theme('1', 's1'), theme('2', 's1')] });
      await store.write((tx) => tx.delete('themes', '1'));
      expect(store.get('themes', '1')).toBeUndefined();
      expect(ids(store.where('themes', 'shop_id', 's1'))).toEqual(['2']);
      const revision = store.revision('themes');
      await store.write((tx) => {
        tx.delete('themes', '1');
        tx.delete('themes', 'never');
      });
      expect(store.revision('themes')).toBe(revision);
      expect(ids(store.all('themes'))).toEqual(['2']);
    });

    it('never allocates again the id of a row it deleted', async () => {
      const { store } = await start();
      const first = await store.write((tx) => [
        tx.insert('tokens', newToken(1)).id,
        tx.insert('tokens', newToken(2)).id,
      ]);
      // The newest first: a sequence derived from the rows left would step back to it.
      await store.write((tx) => tx.delete('tokens', first[1]!));
      await store.write((tx) => tx.delete('tokens', first[0]!));
      const next = await store.write((tx) => [
        tx.insert('tokens', newToken(3)).id,
        tx.insert('tokens', newToken(4)).id,
      ]);
      expect(next.filter((id) => first.includes(id))).toEqual([]);
    });

    it('keeps `where` right through inserts, updates that move rows and deletes', async () => {
      const { store } = await start({ themes: [theme('a', 's1'), theme('b', 's2'), theme('c', 's1')] });
      expect(ids(store.where('themes', 'shop_id', 's1'))).toEqual(['a', 'c']);
      await store.write((tx) => {
        tx.insert('themes', theme('d', 's1'));
        tx.update('themes', 'b', { shop_id: 's1' });
        tx.delete('themes', 'c');
      });
      // b moved into s1's rows at its insertion place, not at the end.
      expect(ids(store.where('themes', 'shop_id', 's1'))).toEqual(['a', 'b', 'd']);
      expect(store.where('themes', 'shop_id', 's2')).toEqual([]);
      expect(ids(store.all('themes'))).toEqual(['a', 'b', 'd']);
    });

    it('keeps `where` right through a write of many rows', async () => {
      const { store } = await start();
      expect(store.where('themes', 'shop_id', 's1')).toEqual([]);
      await store.write((tx) => {
        for (let n = 0; n < 200; n++) tx.insert('themes', newTheme(`s${n % 2}`));
      });
      expect(store.where('themes', 'shop_id', 's1')).toHaveLength(100);
      expect(store.where('themes', 'shop_id', 's0')[0]?.id).toBe('1');
    });

    it('hands out frozen lists that a later write replaces, never changes', async () => {
      const { store } = await start({ themes: [theme('a', 's1'), theme('b', 's1')] });
      const all = store.all('themes');
      const where = store.where('themes', 'shop_id', 's1');
      // Sorted in place, a list would be reordered for every later reader (and every store sharing the table).
      expect(() => (all as unknown[]).reverse()).toThrow(TypeError);
      expect(() => (where as unknown[]).sort()).toThrow(TypeError);
      await store.write((tx) => {
        tx.insert('themes', theme('c', 's1'));
        tx.update('themes', 'a', { title: 'New' });
      });
      expect(all).toEqual([theme('a', 's1'), theme('b', 's1')]);
      expect(where).toEqual([theme('a', 's1'), theme('b', 's1')]);
      expect(store.where('themes', 'shop_id', 's1').map((t) => t.title)).toEqual(['New', 'Theme b', 'Theme c']);
    });

    it('bumps the revision of each collection a write changed, and of no other', async () => {
      const { store } = await start({ themes: [theme('a', 's1')], templates: [template('1', 'a')] });
      const before = { themes: store.revision('themes'), templates: store.revision('templates') };
      const shops = store.revision('shops');
      await store.write((tx) => {
        tx.update('themes', 'a', { title: 'x' });
        tx.insert('themes', theme('b', 's1'));
      });
      await store.write((tx) => tx.get('themes', 'a'));
      expect(store.revision('themes')).toBeGreaterThan(before.themes);
      expect(store.revision('templates')).toBe(before.templates);
      const themes = store.revision('themes');
      await store.write((tx) => {
        tx.update('templates', '1', { body: 'y' });
        tx.delete('themes', 'b');
      });
      expect(store.revision('themes')).toBeGreaterThan(themes);
      expect(store.revision('templates')).toBeGreaterThan(before.templates);
      expect(store.revision('shops')).toBe(shops);
    });

    it('lets reads inside a write see its staged changes, and other reads only once it is committed', async () => {
      const { store } = await start({ themes: [theme('a', 's1'), theme('c', 's1'), theme('d', 's1')] });
      const seen = await store.write((tx) => {
        tx.insert('themes', theme('b', 's1'));
        tx.update('themes', 'a', { title: 'Renamed' });
        tx.update('themes', 'c', { shop_id: 's2' });
        tx.delete('themes', 'd');
        const outside = { b: store.get('themes', 'b'), s1: ids(store.where('themes', 'shop_id', 's1')) };
        return {
          outside,
          b: tx.get('themes', 'b')?.id,
          d: tx.get('themes', 'd'),
          s1: tx.where('themes', 'shop_id', 's1').map((t) => `${t.id}:${t.title}`),
          s2: ids(tx.where('themes', 'shop_id', 's2')),
        };
      });
      expect(seen).toEqual({
        outside: { b: undefined, s1: ['a', 'c', 'd'] },
        b: 'b',
        d: undefined,
        s1: ['a:Renamed', 'b:Theme b'],
        s2: ['c'],
      });
      expect(store.get('themes', 'a')?.title).toBe('Renamed');
      expect(ids(store.where('themes', 'shop_id', 's2'))).toEqual(['c']);
    });

    it('applies nothing of a write whose function throws, in any collection, and goes on with the next', async () => {
      const { store } = await start({ themes: [theme('a', 's1')], templates: [template('1', 'a')] });
      const revisions = () => COLLECTIONS.map((name) => store.revision(name));
      const before = revisions();
      const error = new Error('boom');
      await expect(
        store.write((tx) => {
          tx.insert('themes', theme('b', 's1'));
          tx.update('templates', '1', { body: 'changed' });
          tx.delete('themes', 'a');
          tx.insert('tokens', newToken(1));
          throw error;
        }),
      ).rejects.toBe(error);
      expect(store.all('themes')).toEqual([theme('a', 's1')]);
      expect(store.all('templates')).toEqual([template('1', 'a')]);
      expect(store.all('tokens')).toEqual([]);
      expect(revisions()).toEqual(before);
      await store.write((tx) => tx.delete('themes', 'a'));
      expect(store.all('themes')).toEqual([]);
    });

    it('runs writes one at a time, in the order asked, so that 200 concurrent increments lose none', async () => {
      const { store } = await start({ themes: [theme('a', 's1')] });
      const order: number[] = [];
      await Promise.all(
        Array.from({ length: 200 }, (_, n) =>
          store.write((tx) => {
            order.push(n);
            const count = Number(tx.get('themes', 'a')!.settings.count ?? 0);
            tx.update('themes', 'a', { settings: { count: count + 1 } });
          }),
        ),
      );
      expect(store.get('themes', 'a')?.settings.count).toBe(200);
      expect(order).toEqual(Array.from({ length: 200 }, (_, n) => n));
    });

    it('refuses changes through a transaction kept beyond its write', async () => {
      const { store } = await start();
      let kept: Parameters<Parameters<Store['write']>[0]>[0] | undefined;
      await store.write((tx) => {
        kept = tx;
      });
      expect(() => kept!.insert('themes', theme('z', 's1'))).toThrow(StoreError);
      expect(store.all('themes')).toEqual([]);
    });

    it('finishes the writes queued before close, then refuses writes', async () => {
      const { store } = await start();
      const queued = Array.from({ length: 5 }, (_, n) => store.write((tx) => tx.insert('tokens', newToken(n)).id));
      await store.close();
      expect(new Set(await Promise.all(queued)).size).toBe(5);
      await expect(store.write((tx) => tx.insert('tokens', newToken(9)))).rejects.toThrow(StoreError);
      expect(store.all('tokens')).toHaveLength(5);
    });

    if (durable) {
      describe('durability', () => {
        // What a crash cuts is each adapter's own to test (`crash-*.test.ts` for the JSON files): here the data
        // is closed and opened again, which every durable adapter must survive with every acknowledged write.
        async function reopened(at: OpenedStore): Promise<Store> {
          return at.reopen!();
        }

        it('keeps the initial data and every acknowledged write: 200 concurrent ones, updates, deletes', async () => {
          const at = await start({ themes: [theme('1', 's1')] });
          await Promise.all(
            Array.from({ length: 200 }, (_, n) =>
              at.store.write((tx) => {
                tx.insert('tokens', newToken(n));
                const count = Number(tx.get('themes', '1')!.settings.count ?? 0);
                tx.update('themes', '1', { settings: { count: count + 1 } });
              }),
            ),
          );
          await at.store.write((tx) => {
            tx.delete('tokens', '7');
            tx.update('tokens', '8', { revoked_at: 1 });
          });
          const before = contents(at.store);
          const store = await reopened(at);
          expect(contents(store)).toEqual(before);
          expect(store.get('themes', '1')?.settings.count).toBe(200);
          expect(store.all('tokens')).toHaveLength(199);
          expect(ids(store.where('tokens', 'token_hash', 'hash-150'))).toEqual(['151']);
        });

        it('keeps a write to several collections whole', async () => {
          const at = await start({ themes: [theme('1', 's1')], templates: [template('1', '1')] });
          await at.store.write((tx) => {
            const copy = tx.insert('themes', newTheme('s1', 'Copy', false));
            for (let n = 0; n < 20; n++) tx.insert('templates', newTemplate(copy.id, `c${n}.html`));
            tx.insert('files', file('1', 'AAAA'));
            tx.update('themes', '1', { title: 'Touched' });
            tx.delete('templates', '1');
          });
          const before = contents(at.store);
          const store = await reopened(at);
          expect(contents(store)).toEqual(before);
          expect(store.where('templates', 'theme_id', '2')).toHaveLength(20);
        });

        it('keeps nothing of an aborted write, and allocates ids after the rows it kept', async () => {
          const at = await start();
          await at.store.write((tx) => {
            for (let n = 0; n < 3; n++) tx.insert('tokens', newToken(n));
          });
          await expect(
            at.store.write((tx) => {
              tx.insert('tokens', newToken(3));
              tx.insert('themes', newTheme('s1'));
              throw new Error('abort');
            }),
          ).rejects.toThrow('abort');
          const store = await reopened(at);
          expect(ids(store.all('tokens'))).toEqual(['1', '2', '3']);
          expect(store.all('themes')).toEqual([]);
          expect((await store.write((tx) => tx.insert('tokens', newToken(4)))).id).toBe('4');
        });
      });
    }
  });
}
