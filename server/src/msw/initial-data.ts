/** The data a mock starts from (and returns to on `reset()`): the demo seed, or a test's own data set. */
import { fillPreviewKeys } from '../api/themes/theme.js';
import type { ServerCredentials } from '../demo-credentials.js';
import { type SeedOptions, seed } from '../seed/index.js';
import { DATA_COLLECTIONS, emptyDataset, isCollectionName } from '../store/collections.js';
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
 * A data set, as opposed to seed options: it has a collection of rows. (`products` and `orders` name both a
 * collection and a seed count: the value tells them apart.)
 */
function isDataset(value: Partial<Dataset> | SeedOptions): value is Partial<Dataset> {
  return Object.entries(value).some(([name, rows]) => isCollectionName(name) && Array.isArray(rows));
}

function filled(data: Partial<Dataset>): Dataset {
  const dataset = emptyDataset();
  for (const name of DATA_COLLECTIONS) if (data[name]) Object.assign(dataset, { [name]: data[name] });
  return dataset;
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
const seeded: Map<string, InitialData> = shared[SEEDED];

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

/** The initial data of `createHandlers({ seed })`. */
export function initialData(option: Partial<Dataset> | SeedOptions = {}): InitialData {
  if (!isDataset(option)) {
    const options = { ...MOCK_DEMO_SECRETS, ...option };
    // Options are plain JSON values; sorting the keys makes `{a, b}` and `{b, a}` one entry.
    const key = JSON.stringify(options, Object.keys(options).sort());
    let data = seeded.get(key);
    if (!data) {
      const { dataset, credentials } = seed(options);
      // Shared by every mock of the process: a test that changes a row in place gets a TypeError instead of
      // changing the data of the mocks after it.
      data = { dataset: freezeRows(dataset), credentials, seeded: true };
      seeded.set(key, data);
    }
    // The credentials object is the caller's to keep; the data set is shared.
    return { ...data, credentials: data.credentials && structuredClone(data.credentials) };
  }
  // Cloned, so that the test's own object stays as it wrote it whatever the mock then does.
  const dataset = filled(structuredClone(option));
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
  return { dataset, credentials: credentials || undefined, seeded: false };
}
