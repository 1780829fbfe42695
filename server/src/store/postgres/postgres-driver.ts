/**
 * node-postgres (`pg`), as the PostgreSQL store and the sandbox load it: through this module only.
 *
 * Why not `import pg from 'pg'`: as it loads, pg's `lib/stream.js` asks whether it runs in Cloudflare Workers, first
 * by `navigator.userAgent`, then, where `navigator` is missing (Node 20; Node 21 and later define it), by building a
 * `Response`. Node defines `Response` lazily: that first use loads Node's whole fetch implementation (undici, with
 * HTTP/2, TLS and worker threads), about 30 ms of CPU at every start on PostgreSQL, twice a bare `node:http` server's
 * own start-up, for nothing this process uses. So pg is required synchronously with `navigator` as Node 21 defines
 * it (`userAgent` `Node.js/<major>`), removed once pg is loaded: nothing else runs in between, and pg gets the
 * answer it gets on later versions of Node. Required rather than imported, pg's own CommonJS entry also skips its
 * ES module wrapper and the scan of its exports.
 */
import { createRequire } from 'node:module';
import type Pg from 'pg';

type Driver = typeof Pg;

function loadDriver(): Driver {
  const require = createRequire(import.meta.url);
  if ('navigator' in globalThis) return require('pg') as Driver;
  const major = process.versions.node.split('.')[0];
  Object.defineProperty(globalThis, 'navigator', {
    value: { userAgent: `Node.js/${major}` },
    configurable: true,
    writable: true,
  });
  try {
    return require('pg') as Driver;
  } finally {
    delete (globalThis as { navigator?: unknown }).navigator;
  }
}

const driver = loadDriver();

/** node-postgres's pool of connections (`pg.Pool`). */
export const Pool: Driver['Pool'] = driver.Pool;
/** node-postgres's single connection (`pg.Client`). */
export const Client: Driver['Client'] = driver.Client;
