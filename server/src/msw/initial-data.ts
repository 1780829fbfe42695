/** The data a mock starts from (and returns to on `reset()`): the demo seed, or a test's own data set. */
import { fillPreviewKeys } from '../api/themes/preview-key.js';
import type { ServerCredentials } from '../create-server.js';
import { type SeedOptions, seed } from '../seed/index.js';
import { COLLECTIONS, emptyDataset, isCollectionName } from '../store/collections.js';
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
  for (const name of COLLECTIONS) if (data[name]) Object.assign(dataset, { [name]: data[name] });
  return dataset;
}

/** The initial data of `createHandlers({ seed })`. */
export function initialData(option: Partial<Dataset> | SeedOptions = {}): InitialData {
  if (!isDataset(option)) {
    const seeded = seed({ ...MOCK_DEMO_SECRETS, ...option });
    return { dataset: seeded.dataset, credentials: seeded.credentials };
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
  return { dataset, credentials: credentials || undefined };
}
