/** The data a mock starts from (and returns to on `reset()`): the demo seed, or a test's own data set. */
import { fillPreviewKeys } from '../api/themes/theme.js';
import type { ServerCredentials } from '../demo-credentials.js';
import { type SeedOptions, seed } from '../seed/index.js';
import { DATA_COLLECTIONS, datasetOf, isCollectionName } from '../store/collections.js';
import type { Dataset } from '../store/types.js';

/**
 * Demo secrets of the mock when the seed options give none. The reference server draws them at random; a mock
 * runs only in tests, where fixed values let a suite hard-code them and two runs see the same data.
 */
export const MOCK_DEMO_SECRETS = { clientSecret: 'msw-demo-client-secret', password: 'msw-demo-password' } as const;

/** The pristine data set of a mock and its demo credentials. */
export interface InitialData {
  dataset: Dataset;
  /** The demo app (the first app) and its owner; `undefined` when the data set holds no app. */
  credentials: ServerCredentials | undefined;
  /** True for the seed's data, whose rows need no checking (unique ids); a test's own data set is checked. */
  seeded: boolean;
}

/**
 * A data set passed as `seed` (the form `data` replaces), as opposed to seed options: it has a collection of rows.
 * (`products` and `orders` name both a collection and a seed count: the value tells them apart.)
 */
function isDataset(value: Partial<Dataset> | SeedOptions): value is Partial<Dataset> {
  return Object.entries(value).some(([name, rows]) => isCollectionName(name) && Array.isArray(rows));
}

/**
 * Checks a data set given as `data`, in one pass over its rows: an object of collections (only those of data:
 * `users`, `apps`, `shops`, …), each an array of objects with a string `id`. A mistake (a module namespace
 * instead of its default export, a row without id) is a `TypeError` naming it rather than a failure in a request.
 * `legacy`: a data set passed as `seed`, whose other members were always ignored.
 */
function checkDataset(data: unknown, legacy = false): asserts data is Partial<Dataset> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new TypeError(
      `data must be a data set, an object of collections such as { shops: [...] }; got ${typeof data}`,
    );
  }
  for (const [name, rows] of Object.entries(data)) {
    if (!(DATA_COLLECTIONS as readonly string[]).includes(name)) {
      if (legacy) continue;
      throw new TypeError(`data.${name} is not a collection of a data set (${DATA_COLLECTIONS.join(', ')})`);
    }
    if (!Array.isArray(rows)) throw new TypeError(`data.${name} must be an array of rows`);
    for (let index = 0; index < rows.length; index++) {
      const row: unknown = rows[index];
      if (typeof row !== 'object' || row === null || typeof (row as { id?: unknown }).id !== 'string') {
        throw new TypeError(`data.${name}[${index}] must be an object with a string "id"`);
      }
    }
  }
}

/**
 * Seeded data sets of this process by their options. A suite creates a mock per test file (per test, often)
 * with the same options, and the seed is deterministic: building it once is enough. Mocks share it, since no
 * store ever changes the data it is given (see `liveCore`). Kept on `globalThis` because test runners load
 * the modules afresh for each test file of a worker (vitest's `isolate`), and the frozen rows hold no state a
 * file could leave behind.
 */
const SEEDED = Symbol.for('@storefront-platform/server/msw: seeded data sets');
const shared = globalThis as { [SEEDED]?: Map<string, InitialData> };
shared[SEEDED] ??= new Map();
const seededSets: Map<string, InitialData> = shared[SEEDED];

/**
 * Freezes the data set's arrays and rows, the objects a store hands out. One level only: walking every nested
 * object cost 14 ms of a cold start, and rows are what a test would change in place by mistake.
 */
function freezeRows(dataset: Dataset): Dataset {
  for (const rows of Object.values(dataset) as object[][]) {
    for (const row of rows) Object.freeze(row);
    Object.freeze(rows);
  }
  return Object.freeze(dataset);
}

/** What `createHandlers` was given for its data. */
export interface DataOptions {
  seed?: Partial<Dataset> | SeedOptions;
  data?: Partial<Dataset>;
}

/** The initial data of `createHandlers({ data })` or `createHandlers({ seed })`. */
export function initialData({ seed: seedOption, data }: DataOptions = {}): InitialData {
  if (data !== undefined && seedOption !== undefined) {
    throw new TypeError('Give either data (a data set) or seed (seed options for the demo data), not both');
  }
  if (data !== undefined) {
    checkDataset(data);
    return given(data);
  }
  // The form `data` replaces, kept for one release.
  if (seedOption !== undefined && isDataset(seedOption)) {
    checkDataset(seedOption, true);
    return given(seedOption);
  }
  return seeded(seedOption);
}

function seeded(option: SeedOptions = {}): InitialData {
  const options = { ...MOCK_DEMO_SECRETS, ...option };
  // Options are plain JSON values; sorting the keys makes `{a, b}` and `{b, a}` one entry.
  const key = JSON.stringify(options, Object.keys(options).sort());
  let data = seededSets.get(key);
  if (!data) {
    const { dataset, credentials } = seed(options);
    // Shared by every mock of the process: a test that changes a row in place gets a TypeError instead of
    // changing the data of the mocks after it.
    data = { dataset: freezeRows(dataset), credentials, seeded: true };
    seededSets.set(key, data);
  }
  // The credentials object is the caller's to keep; the data set is shared.
  return { ...data, credentials: data.credentials && structuredClone(data.credentials) };
}

/**
 * A data set of the test's own (or imported), copied row by row, so that the object given stays as it was
 * written. One level, as the seed's rows are frozen: no store changes a row's nested values (it replaces the row),
 * and a deep copy of 10 000 products took 300 ms of a mock's start, against about 10 for this one.
 */
function given(data: Partial<Dataset>): InitialData {
  const copied: Partial<Record<string, object[]>> = {};
  for (const name of DATA_COLLECTIONS) copied[name] = data[name]?.map((row) => ({ ...row }));
  const dataset = datasetOf(copied as Partial<Dataset>);
  fillPreviewKeys(dataset);
  const app = dataset.apps[0];
  const owner = app && dataset.users.find((user) => user.id === app.owner_id);
  const credentials = app &&
    owner && {
      clientId: app.client_id,
      clientSecret: app.client_secret,
      login: owner.login,
      // Only the hash is in a data set.
      password: undefined,
      redirectUris: [...app.redirect_uris],
    };
  // Not frozen as the seed's rows are: a data set is this mock's alone, and freezing 10 000 rows took 100 ms of a
  // cold start.
  return { dataset, credentials: credentials || undefined, seeded: false };
}
