/**
 * A worker's side of `storefront-server --workers N` (the primary's is `primary.ts`): which worker it is, the
 * message that tells the primary it serves, and the fleet's one listening socket (see `primary.ts` for why the
 * primary keeps it).
 */
import cluster from 'node:cluster';
import type { Server } from 'node:net';

/** The environment variable that tells a worker its number (1 for the first). */
export const WORKER_NUMBER = 'STOREFRONT_CLUSTER_WORKER';

/**
 * What a worker sends the primary once its data is open and it answers requests. node:cluster's own `listening`
 * event comes earlier: a worker listens before it opens its data (so that a port in use fails before any data is
 * touched), and a worker whose data fails to open has not started.
 */
export const LISTENING = 'storefront:listening';

/**
 * The fleet's listening socket, with it: the first worker sends it to the primary once bound, the primary sends it
 * to each later worker that asks ({@link ASK_SOCKET}).
 */
export const SOCKET = 'storefront:socket';
export const ASK_SOCKET = 'storefront:ask-socket';

/**
 * A listening socket as node's IPC passes it between processes: libuv's TCP handle itself, which nothing accepts on
 * until a `net.Server` listens on it. (A `net.Server` sent instead would be listened on, and accepted on, by the
 * primary as soon as it arrived.)
 */
export interface SocketHandle {
  close(): void;
}

/** Tells the primary that this worker serves (nothing outside a cluster). */
export function reportListening(): void {
  if (cluster.isWorker) process.send?.({ type: LISTENING });
}

/** Whether this process prints the banner: the only one, or a fleet's first worker. */
export function isFirstProcess(): boolean {
  return !cluster.isWorker || process.env[WORKER_NUMBER] === '1';
}

/**
 * Listens as this process's place asks: the only process or a fleet's first worker binds `port` on `host` itself
 * (the first then hands the socket to the primary); a later worker listens on the socket the primary keeps.
 */
export function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const listened = () => {
      server.off('error', reject);
      resolve();
    };
    if (isFirstProcess()) {
      // `exclusive`: the socket is bound here, not by node:cluster, which would close it with the last worker.
      server.listen({ port, host, exclusive: true }, () => {
        if (cluster.isWorker) process.send?.({ type: SOCKET }, handleOf(server) as never);
        listened();
      });
      return;
    }
    process.on('message', function take(message: { type?: string }, handle: unknown) {
      if (message?.type !== SOCKET) return;
      process.off('message', take);
      server.listen(handle, listened);
    });
    process.send?.({ type: ASK_SOCKET });
  });
}

/**
 * The libuv handle of a listening `net.Server`: `_handle`, which node's own `server.listen(handle)` documents as what
 * it takes from a server, and the only way to pass the socket on without the receiver accepting on it.
 */
function handleOf(server: Server): SocketHandle {
  return (server as unknown as { _handle: SocketHandle })._handle;
}
