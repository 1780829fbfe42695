/**
 * Playwright's global setup: one sandbox per project's store, started before any test and stopped after the last.
 * The runner's worker processes inherit this process's environment, so each sandbox reaches the tests as one
 * variable, `SANDBOX_<STORE>` (see `fixtures.ts`), and the tests steer it through `connectSandbox`.
 */

import type { FullConfig } from '@playwright/test';
import { type RunningSandbox, startSandbox } from '@storefront-platform/server';
import { DATABASE_URL, SANDBOX_ENV, type SandboxHandle, type StoreName } from './sandbox-handle.js';

/** How each store's sandbox starts: the JSON store in this process, PostgreSQL as a fleet of two workers. */
const STARTS: Record<StoreName, () => Promise<RunningSandbox>> = {
  json: () => startSandbox({ products: 20 }),
  postgres: () => startSandbox({ store: DATABASE_URL, workers: 2, products: 20 }),
};

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const stores = [...new Set(config.projects.map((project) => (project.use as { store: StoreName }).store))];
  const started = await Promise.allSettled(stores.map((store) => STARTS[store]()));
  const sandboxes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stopAll = async () => void (await Promise.all(sandboxes.map((sandbox) => sandbox.stop())));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  stores.forEach((store, i) => {
    const { origin, baseUrl, credentials, connection } = sandboxes[i]!;
    const handle: SandboxHandle = { origin, baseUrl, credentials, connection, workers: store === 'json' ? 1 : 2 };
    process.env[SANDBOX_ENV[store]] = JSON.stringify(handle);
  });
  return stopAll;
}
