import type { CollectionName, DataCollectionName, Dataset, SandboxCollectionName, StoredData } from './types.js';

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
  fault_rules: true,
  sandbox_settings: true,
};

const SANDBOX: Record<SandboxCollectionName, true> = { fault_rules: true, sandbox_settings: true };

/** Every collection name, in a fixed order. */
export const COLLECTIONS = Object.keys(NAMES) as readonly CollectionName[];

/**
 * The collections of data, in the same order: what a seed, a snapshot, a reset, a restore and a copy between
 * stores carry (the sandbox's own collections stay as they are).
 */
export const DATA_COLLECTIONS = COLLECTIONS.filter(
  (name) => !Object.hasOwn(SANDBOX, name),
) as readonly DataCollectionName[];

/** Whether `name` holds the sandbox's own state (fault rules, settings), not data. */
export function isSandboxCollection(name: CollectionName): name is SandboxCollectionName {
  return Object.hasOwn(SANDBOX, name);
}

export function isCollectionName(name: string): name is CollectionName {
  return Object.hasOwn(NAMES, name);
}

/** A data set with no rows. */
export function emptyDataset(): Dataset {
  return Object.fromEntries(DATA_COLLECTIONS.map((name) => [name, []])) as unknown as Dataset;
}

/** The collections of data that `data` holds, as a data set (those it lacks empty; the sandbox's left out). */
export function datasetOf(data: Partial<StoredData>): Dataset {
  const dataset = emptyDataset();
  for (const name of DATA_COLLECTIONS) if (data[name]) Object.assign(dataset, { [name]: data[name] });
  return dataset;
}
