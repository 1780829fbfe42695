/**
 * Products changing under a walk over a list's `next` links: another task creates 200 products and deletes 200
 * while the walk runs, and checks what the walk must have seen then (the "done when": no duplicates,
 * none missed that existed throughout, the list's order kept).
 *
 * The writes run concurrently with the walk's requests, but paced by it: each page the walk reports lets the
 * churn make its next few writes while the walk fetches the next page, so that they spread over the whole walk
 * on any machine, however loaded, instead of landing all before its first page or after its last.
 */
import type { ProductRow, Store } from '@storefront-platform/server';

/** Later than every seeded timestamp: created products are the newest, as they would be. */
const CREATED_FROM = Date.parse('2027-01-01T00:00:00.000Z');

/** A small deterministic PRNG (mulberry32): the same products are deleted and created on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Product sort orders by field, as the wire contract names them, with the key each compares. */
const KEYS: Record<string, (row: ProductRow) => string | number> = {
  updated_on: (row) => row.updated_on,
  created_on: (row) => row.created_on,
  title: (row) => row.title.toLowerCase(),
  price: (row) => row.price,
};

export interface ChurnOptions {
  /** Products created, and products deleted (default 200 each). */
  count?: number;
  /** Writes allowed per page the walk reports (default 16). */
  writesPerPage?: number;
  /** Seeds the choice of deleted products and the new ones' titles and prices. */
  seed?: number;
}

export interface Churn {
  /**
   * The walk fetched a page: once the writes allowed before are made, the churn may make its next ones,
   * concurrently with the walk's next request. The walk awaits this before asking for its next page.
   */
  page(): Promise<void>;
  /** Resolves once every write is made (and lets the remaining ones go without waiting for pages). */
  finish(): Promise<void>;
  /** Writes made so far. */
  readonly written: number;
  /**
   * Throws unless `ids`, the walk's items in order, hold no duplicate, hold every product of `visible` that
   * existed throughout the walk, hold only products that existed at some time, and follow `sort`
   * (`created_on.asc`…), ties broken by id.
   */
  check(ids: readonly string[], sort: string): void;
}

/**
 * Starts a churn over `store`: it deletes `count` products among those `visible` picks (what the walk's list
 * shows) and creates `count` new ones the walk's list also shows (visible, in a shop of the first picked
 * product), alternately.
 */
export function startChurn(store: Store, visible: (row: ProductRow) => boolean, options: ChurnOptions = {}): Churn {
  const { count = 200, writesPerPage = 16, seed = 30 } = options;
  const next = random(seed);
  const initial = store.all('products').filter(visible);
  if (initial.length < 2 * count) throw new Error(`startChurn: ${initial.length} products, need ${2 * count}`);
  const everSeen = new Map(initial.map((row) => [row.id, row]));
  const pool = [...initial];
  const deleted = new Set<string>();
  const template = initial[0]!;

  let allowed = 0;
  let written = 0;
  let wake: (() => void) | undefined;
  let caughtUp: (() => void) | undefined;
  const turn = () => (written < allowed ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve)));
  const wrote = () => {
    written++;
    if (written >= allowed) caughtUp?.();
  };
  const allow = (more: number) => {
    allowed += more;
    wake?.();
    wake = undefined;
  };

  const run = async () => {
    for (let i = 0; i < count; i++) {
      await turn();
      const at = new Date(CREATED_FROM + i * 1000).toISOString();
      const created = await store.write((tx) =>
        tx.insert('products', {
          ...template,
          id: undefined,
          title: `Churned ${Math.floor(next() * 1e6)} ${i}`,
          slug: `churned-${i}`,
          price: 100 + Math.floor(next() * 20_000),
          status: 'visible',
          created_on: at,
          updated_on: at,
        }),
      );
      everSeen.set(created.id, created);
      wrote();
      await turn();
      const [victim] = pool.splice(Math.floor(next() * pool.length), 1);
      await store.write((tx) => tx.delete('products', victim!.id));
      deleted.add(victim!.id);
      wrote();
    }
  };
  const done = run();

  return {
    async page() {
      if (written < allowed && written < 2 * count) await new Promise<void>((resolve) => (caughtUp = resolve));
      caughtUp = undefined;
      allow(writesPerPage);
    },
    async finish() {
      allow(Number.POSITIVE_INFINITY);
      await done;
    },
    get written() {
      return written;
    },
    check(ids, sort) {
      const seen = new Set(ids);
      if (seen.size !== ids.length) throw new Error(`${ids.length - seen.size} duplicates in a walk by ${sort}`);
      const missed = initial.filter((row) => !deleted.has(row.id) && !seen.has(row.id)).map((row) => row.id);
      if (missed.length) throw new Error(`a walk by ${sort} missed ${missed.length}: ${missed.slice(0, 10)}`);
      const unknown = ids.filter((id) => !everSeen.has(id));
      if (unknown.length) throw new Error(`a walk by ${sort} saw products nobody made: ${unknown.slice(0, 10)}`);
      const [field, direction] = sort.split('.') as [string, string];
      const key = KEYS[field]!;
      const sign = direction === 'desc' ? -1 : 1;
      for (let i = 1; i < ids.length; i++) {
        const [a, b] = [everSeen.get(ids[i - 1]!)!, everSeen.get(ids[i]!)!];
        const [ka, kb] = [key(a), key(b)];
        const ascending = ka < kb || (ka === kb && Number(a.id) < Number(b.id));
        if (sign * (ascending ? 1 : -1) < 0) throw new Error(`a walk by ${sort}: ${b.id} came after ${a.id}`);
      }
    },
  };
}
