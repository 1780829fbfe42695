/**
 * A worker's side of `storefront-server --workers N` (the primary's is `primary.ts`): which worker it is, and the
 * message that tells the primary it serves.
 */
import cluster from 'node:cluster';

/** The environment variable that tells a worker its number (1 for the first). */
export const WORKER_NUMBER = 'STOREFRONT_CLUSTER_WORKER';

/**
 * What a worker sends the primary once its data is open and it answers requests. node:cluster's own `listening`
 * event comes earlier: a worker listens before it opens its data (so that a port in use fails before any data is
 * touched), and a worker whose data fails to open has not started.
 */
export const LISTENING = 'storefront:listening';

/** Tells the primary that this worker serves (nothing outside a cluster). */
export function reportListening(): void {
  if (cluster.isWorker) process.send?.({ type: LISTENING });
}

/** Whether this process prints the banner: the only one, or a fleet's first worker. */
export function isFirstProcess(): boolean {
  return !cluster.isWorker || process.env[WORKER_NUMBER] === '1';
}
