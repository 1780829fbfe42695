/** What the global setup hands the tests of each store, through the environment. */
import type { SandboxConnection, ServerCredentials } from '@storefront-platform/server';

/** The store a project's tests run against (its `use.store`). */
export type StoreName = 'json' | 'postgres';

/** The PostgreSQL database of the `postgres` project; the sandbox takes a schema of its own there. */
export const DATABASE_URL = process.env.SANDBOX_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The variable that holds each store's {@link SandboxHandle}, as JSON. */
export const SANDBOX_ENV: Record<StoreName, string> = { json: 'SANDBOX_JSON', postgres: 'SANDBOX_POSTGRES' };

/** A running sandbox as another process reaches it. */
export interface SandboxHandle {
  origin: string;
  baseUrl: string;
  credentials: ServerCredentials;
  connection: SandboxConnection;
  /** Processes serving it. */
  workers: number;
}
