import type { CollectionName, Dataset } from './types.js';

/** A record, so that the compiler insists on every collection of `Collections`. */
const NAMES: Record<CollectionName, true> = {
  users: true,
  apps: true,
  tokens: true,
  codes: true,
  shops: true,
  products: true,
  orders: true,
  themes: true,
  templates: true,
  assets: true,
  files: true,
  events: true,
  webhook_endpoints: true,
  webhook_deliveries: true,
  idempotency_keys: true,
};

/** Every collection name, in a fixed order. */
export const COLLECTIONS = Object.keys(NAMES) as readonly CollectionName[];

export function isCollectionName(name: string): name is CollectionName {
  return Object.hasOwn(NAMES, name);
}

/** A data set with no rows. */
export function emptyDataset(): Dataset {
  return Object.fromEntries(COLLECTIONS.map((name) => [name, []])) as unknown as Dataset;
}
