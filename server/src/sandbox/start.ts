/**
 * `startSandbox()`: a reference server of its own for a test suite (or one test file): on a free port of
 * loopback, the control API on, over seeded data of its own: JSON in a new temporary directory, or a PostgreSQL
 * schema, served in this process or by `storefront-server --workers N` in a child process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ServerControl } from '../create-server.js';
import type { DemoOptions, ServerCredentials } from '../demo-credentials.js';
import { isPostgresUrl, withoutPassword } from '../store/postgres/postgres.js';
import { connectSandbox, type SandboxClient, type SandboxConnection } from './client.js';
import { startFleet } from './fleet.js';
import { sandboxSchema } from './sandbox-schema.js';

/** Options of {@link startSandbox}. Every field is optional. */
export interface SandboxOptions {
  /** Products to seed. Default 300. */
  products?: number;
  /** Fixed demo credentials (default: random ones, in `credentials`). */
  demo?: DemoOptions;
  /** Lifetime of access tokens, in seconds. Default 3600. */
  tokenTtl?: number;
  /** Redirect URIs the demo app accepts besides its own, e.g. the app under test's callback. */
  redirectUris?: readonly string[];
  /**
   * A PostgreSQL database to serve instead of a JSON file in a temporary directory: `postgres://user@host/db`. The
   * sandbox seeds a schema there afresh at each start (see `schema`).
   */
  store?: string;
  /**
   * The schema on `store` (also read from the URL's `?schema=`): seeded afresh at the start, whatever it held, and
   * kept after `stop()`. Default: a new schema of the sandbox's own (`sandbox_…`), dropped by `stop()`, so that
   * sandboxes started at once on one database never share data.
   */
  schema?: string;
  /**
   * Processes serving the sandbox (`storefront-server --workers`); above 1 needs `store`. With several, the
   * sandbox is `storefront-server --store … --workers N --control --port 0` in a child process (the built bin; from
   * this repository's sources, through tsx), so that a test meets what a fleet does: requests, control calls
   * included, served by whichever worker the kernel picks. Default 1: served in this process.
   */
  workers?: number;
}

/** A running sandbox. */
export interface RunningSandbox {
  /** Its origin, e.g. `http://127.0.0.1:53124`; the token endpoint is `{origin}/oauth/token`. */
  origin: string;
  /** The API root, `{origin}/v1`. */
  baseUrl: string;
  /** The demo app and user, password included. */
  credentials: ServerCredentials;
  /** Where its control API is and its token: what another process passes to `connectSandbox`. */
  connection: SandboxConnection;
  /** Its control API. */
  control: SandboxClient;
  /**
   * Stops the server (with several workers, the child process, each worker finishing its requests) and removes
   * its data: the temporary directory, or the schema it made.
   */
  stop(): Promise<void>;
}

/** What each way of serving gives {@link startSandbox}. */
interface Served {
  origin: string;
  baseUrl: string;
  credentials: ServerCredentials;
  control: ServerControl;
  stop(): Promise<void>;
}

function checkOptions(options: SandboxOptions): number {
  const { workers = 1, store } = options;
  if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
    throw new RangeError(`workers must be a whole number from 1 to 256, got ${workers}`);
  }
  if (store !== undefined && !isPostgresUrl(store)) {
    throw new TypeError(`store must be a postgres:// URL, got "${withoutPassword(store)}"`);
  }
  if (store === undefined && options.schema !== undefined) throw new TypeError('schema needs store');
  if (store === undefined && workers > 1) {
    throw new TypeError('workers above 1 need store (postgres://…): a JSON data directory is one process’s');
  }
  return workers;
}

/** The server options every sandbox in this process shares. */
function serverOptions({ products, demo, tokenTtl, redirectUris }: SandboxOptions) {
  return { port: 0, control: true, explorer: false, products, demo, tokenTtl, redirectUris };
}

async function inProcess(options: Parameters<typeof createServer>[0]): Promise<Served> {
  const server = await createServer(options);
  return {
    origin: server.origin,
    baseUrl: server.baseUrl,
    credentials: server.credentials!,
    control: server.control!,
    stop: () => server.close(),
  };
}

async function onJson(options: SandboxOptions): Promise<Served> {
  const dir = await mkdtemp(join(tmpdir(), 'storefront-sandbox-'));
  const removeDir = () => rm(dir, { recursive: true, force: true });
  try {
    const served = await inProcess({ ...serverOptions(options), data: join(dir, 'db.json') });
    return { ...served, stop: () => served.stop().finally(removeDir) };
  } catch (error) {
    await removeDir();
    throw error;
  }
}

async function onPostgres(store: string, workers: number, options: SandboxOptions): Promise<Served> {
  const schema = sandboxSchema(store, options.schema);
  try {
    const served =
      workers > 1
        ? await startFleet({ ...options, store: schema.url, workers, ownSchema: schema.own })
        : await inProcess({ ...serverOptions(options), store: schema.url, reset: true });
    return { ...served, stop: () => served.stop().finally(() => schema.release()) };
  } catch (error) {
    // The start's failure is the news, not a failure to drop what it made.
    await schema.release().catch(() => undefined);
    throw error;
  }
}

/** Starts a sandbox; resolves once it answers (with several workers, once every worker does). */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const workers = checkOptions(options);
  const served =
    options.store === undefined ? await onJson(options) : await onPostgres(options.store, workers, options);
  let stopping: Promise<void> | undefined;
  return {
    origin: served.origin,
    baseUrl: served.baseUrl,
    credentials: served.credentials,
    connection: served.control,
    control: connectSandbox(served.control),
    stop() {
      stopping ??= served.stop();
      return stopping;
    },
  };
}
