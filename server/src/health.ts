/**
 * `GET /health` (and HEAD) for load balancers and orchestrators: 200 `{"status":"ok"}` when this process can
 * serve, 503 `{"status":"unavailable"}` when its store cannot be reached (a shared database that does not
 * answer), so that traffic goes to the processes that can. Outside the API: no token, no CORS, never cached.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Store } from './store/types.js';

/** The path of the health check, at the origin's root. */
export const HEALTH_PATH = '/health';

function answer(req: IncomingMessage, res: ServerResponse, status: number, state: string): void {
  const body = JSON.stringify({ status: state });
  res.writeHead(status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** `app` with the health check in front of it. */
export function withHealth(store: Store, app: RequestListener): RequestListener {
  return (req, res) => {
    const path = req.url?.split('?', 1)[0];
    if (path !== HEALTH_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) return app(req, res);
    // A shared store reads its database's write counter (see `Store.sync`); a store of this process has nothing to read.
    const probe = store.sync?.();
    if (!probe) return answer(req, res, 200, 'ok');
    probe.then(
      () => answer(req, res, 200, 'ok'),
      () => answer(req, res, 503, 'unavailable'),
    );
  };
}
