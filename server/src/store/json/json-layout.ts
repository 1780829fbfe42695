/**
 * Which layout each collection of the JSON-file store has on disk, by data format version, and the names of
 * its files. The layouts themselves are in `json-collections.ts` and `json-shards.ts`.
 */

import type { CollectionName } from '../types.js';
import type { Durability } from './durable-file.js';
import { ArrayFile, type CollectionFiles, RowFiles } from './json-collections.js';
import { ShardFiles, shardCountFor, shardEntry } from './json-shards.js';

/** `array`: one JSON array file; `rows`: a file per row; `shards`: hash-spread array files. */
export type Layout = 'array' | 'rows' | 'shards';

/** The data format this code writes. */
export const VERSION = 2;

/**
 * Version 2: a write rewrites what it touched, never a whole collection that grows. Array files stay for small
 * collections that are seldom written and that people (and the examples) read by hand.
 */
const LAYOUT: Record<CollectionName, Layout> = {
  users: 'array',
  apps: 'array',
  shops: 'array',
  // Large rows (a template's body, an asset's bytes) and the theme every template or asset write touches: a
  // write costs its own rows, whether the theme has 3 templates or 300.
  themes: 'rows',
  templates: 'rows',
  files: 'rows',
  // Many small rows, growing with traffic (tokens, codes, asset uploads) or with the seed (100 000 products).
  tokens: 'shards',
  codes: 'shards',
  products: 'shards',
  orders: 'shards',
  assets: 'shards',
  events: 'shards',
  webhook_deliveries: 'shards',
  // One per POST sent with a key, pruned after a day.
  idempotency_keys: 'shards',
  // A few per app, read by hand when a delivery puzzles someone.
  webhook_endpoints: 'array',
  // The sandbox's fault rules and clock: a few rows, written by tests.
  fault_rules: 'array',
  sandbox_settings: 'array',
};

/** The layout of `name` in data of format `version`. */
export function layoutOf(version: number, name: CollectionName): Layout {
  // Version 1 had one array file per collection, asset bytes aside.
  if (version === 1) return name === 'files' ? 'rows' : 'array';
  return LAYOUT[name];
}

/** Everything needed to open one collection's files. */
export interface CollectionPlace {
  /** The data directory (where the manifest is) and the manifest's name without `.json`. */
  dir: string;
  stem: string;
  layout: Layout;
  /** The file or directory in `dir`, as the manifest names it. */
  entry: string;
  /** For shards: how many. */
  count: number;
}

/** Where a new collection of `rows` rows goes in the current format. */
export function newPlace(dir: string, stem: string, name: CollectionName, rows: number): CollectionPlace {
  const layout = LAYOUT[name];
  const count = layout === 'shards' ? shardCountFor(rows, name) : 1;
  const entry =
    layout === 'array' ? `${stem}.${name}.json` : layout === 'rows' ? `${stem}.${name}` : shardEntry(stem, name, count);
  return { dir, stem, layout, entry, count };
}

/**
 * The files of collection `name` at `place`. `onMove` records a shard collection's new directory in the
 * manifest (see `ShardFiles`).
 */
export function openCollection(
  name: CollectionName,
  place: CollectionPlace,
  durability: Durability,
  onMove: () => Promise<void>,
): CollectionFiles {
  const { dir, stem, layout, entry, count } = place;
  if (layout === 'array') return new ArrayFile(name, dir, entry, durability);
  if (layout === 'rows') return new RowFiles(name, dir, entry, durability);
  return new ShardFiles(name, dir, stem, entry, count, durability, onMove);
}

/** Whether `entry` in the data directory is a shard directory of `stem`'s data (listed by its manifest or not). */
export function isShardEntry(stem: string, entry: string): boolean {
  const prefix = `${stem}.`;
  if (!entry.startsWith(prefix)) return false;
  const [name, count, ...rest] = entry.slice(prefix.length).split('.');
  return rest.length === 0 && LAYOUT[name as CollectionName] === 'shards' && /^[1-9]\d*$/.test(count ?? '');
}
