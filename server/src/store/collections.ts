import type { CollectionName, DataCollectionName, Dataset, SandboxCollectionName } from './types.js';

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
