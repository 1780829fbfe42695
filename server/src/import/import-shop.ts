/**
 * `importShop`: a copy of the shops another API of this kind serves (the real one, another reference server), as
 * a data set of the reference server: `storefront-server import` from code. See docs/server.md, "A copy of your
 * shop".
 */
import { type ClientEvents, OAuthError, UnauthorizedError } from '@storefront-platform/sdk';
import { connectRemote, type RemoteApi } from '../remote/remote-api.js';
import { describeRemoteFailure } from '../remote/remote-failure.js';
import type { DemoCredentials } from '../seed/seed.js';
import { DATA_COLLECTIONS } from '../store/collections.js';
import { StoreError } from '../store/errors.js';
import type { DataCollectionName } from '../store/types.js';
import { buildDataset } from './build-dataset.js';
import { demoAccess, type ImportDemoOptions } from './demo-access.js';
import { destinationOf } from './destination.js';
import { sandboxOrigin } from './origins.js';
import type { ImportProgress } from './progress.js';
import { ResumeState } from './resume-state.js';
import { ImportError, walk } from './walk.js';

/** What {@link importShop} copies, from where, to where. */
export interface ImportOptions {
  /** The API to read and how to sign in to it (`url` is its root, e.g. `https://api.example.com/v1`). */
  from: RemoteApi;
  /**
   * A JSON data directory (as `storefront-server --data DIR` reads it) or a PostgreSQL URL (`?schema=NAME`). It
   * must hold no data unless {@link ImportOptions.replace} or {@link ImportOptions.since} is given.
   */
  to: string;
  /** Only these shops (ids); default: every shop the user administers. */
  shops?: readonly string[];
  /**
   * Update the data set `to` holds: only products and orders whose `updated_on` is later are fetched again; the
   * rest are kept from it, and what the source no longer lists is removed. An ISO 8601 date or epoch ms.
   */
  since?: string | number | Date;
  /** A sample of this many products per shop, the same on every import. Default: all. */
  products?: number;
  /** Requests in flight at once. Default: `from.concurrency`, else 4. */
  concurrency?: number;
  /** Replace whatever `to` holds. */
  replace?: boolean;
  /** The sandbox's origin, which replaces the source's addresses in the data. Default `http://localhost:4000`. */
  publicUrl?: string;
  /** The demo user's and app's credentials, instead of the fixed sandbox ones. */
  demo?: ImportDemoOptions;
  /** Where progress is kept between runs. Default: `DIR.partial` beside a directory. */
  staging?: string;
  /** Called as the import progresses, and once per shop read (`phase: 'done'`). */
  onProgress?: (event: ImportProgress) => void;
  /** Called before the SDK waits to retry a request: its `retry` event (`delay` in ms, `error` the attempt's). */
  onRetry?: (event: ClientEvents['retry']) => void;
}

/** What {@link importShop} did. */
export interface ImportReport {
  /** Where the data set is: the directory, or the database (without its password). */
  location: string;
  /** Rows written, per collection. */
  rows: Record<DataCollectionName, number>;
  /** The demo app and user of the data set: what to sign in to the sandbox with. */
  credentials: DemoCredentials;
  /** Rows read by a request of this run. */
  fetched: number;
  /** Rows taken from an earlier, interrupted run or, with `since`, from the data set updated. */
  reused: number;
}

function sinceOf(since: ImportOptions['since']): number | undefined {
  if (since === undefined) return undefined;
  const ms = since instanceof Date ? since.getTime() : typeof since === 'number' ? since : Date.parse(since);
  if (!Number.isFinite(ms)) throw new RangeError(`since must be a date (ISO 8601), got ${JSON.stringify(since)}`);
  return ms;
}

/**
 * Copies the shops `options.from` administers into `options.to`, as a data set a reference server serves: their
 * products, orders, themes, templates and assets (bytes checked against their digests), ids and timestamps kept;
 * never the source's users, apps, tokens, webhooks or events. A demo user (owner of the shops) and a demo app
 * are made; their credentials are in the report. Importing the same source again gives the same bytes. An import
 * cut short continues when run again with the same options. Rejects with a `RemoteApiError` (bad URL or
 * credentials), an `ImportError` (a refused sign-in or token, its message naming the credential to check and its
 * `cause` the SDK's `OAuthError` or `UnauthorizedError`; a shop not found), another SDK error (the source failed:
 * a timeout, a 5xx) or a `StoreError`.
 */
export async function importShop(options: ImportOptions): Promise<ImportReport> {
  const since = sinceOf(options.since);
  const origin = sandboxOrigin(options.publicUrl);
  if (options.products !== undefined && !(Number.isSafeInteger(options.products) && options.products >= 0)) {
    throw new RangeError(`products must be a whole number, got ${options.products}`);
  }
  const concurrency = options.concurrency ?? options.from.concurrency ?? 4;
  if (!(Number.isSafeInteger(concurrency) && concurrency >= 1)) {
    throw new RangeError(`concurrency must be a whole number from 1, got ${concurrency}`);
  }
  const client = connectRemote(options.from);
  if (options.onRetry) client.on('retry', options.onRetry);
  const destination = await destinationOf(options.to, options.staging);
  const existing = await destination.read();
  if (existing && !options.replace && since === undefined) {
    throw new StoreError(
      `${destination.location} already holds data: import into an empty one, replace it (--replace) or update it (--since DATE)`,
    );
  }
  const state = await ResumeState.open(destination.staging, options.from.url);
  const base = since === undefined ? undefined : existing;
  const walked = await walk({
    client,
    shops: options.shops,
    since,
    products: options.products,
    concurrency,
    state,
    base,
    onProgress: options.onProgress,
  }).catch((error: unknown) => {
    // The SDK's OAuthError says what the source said ("Client authentication failed"); which credential it was
    // (the app's, the user's) is known here only.
    if (error instanceof OAuthError || error instanceof UnauthorizedError) {
      throw new ImportError(describeRemoteFailure(error, options.from), { cause: error });
    }
    throw error;
  });
  const demo = demoAccess(options.from.url, options.demo);
  const data = buildDataset({ walked, source: options.from.url, origin, demo, base });
  await destination.write(data);
  await state.remove();
  return {
    location: destination.location,
    rows: Object.fromEntries(DATA_COLLECTIONS.map((name) => [name, data[name].length])) as ImportReport['rows'],
    credentials: demo.credentials,
    fetched: walked.fetched,
    reused: walked.reused,
  };
}
