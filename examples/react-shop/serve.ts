/**
 * Builds the React shop with Vite and serves it as static files:
 *
 *   npm run example:react                 against the reference server (npm start), then open http://localhost:8080
 *   npm run example:react -- --offline    the API mocked in the page by the MSW handlers (setupWorker), no server
 *
 * Port 8080 matches the redirect URIs of the reference server's demo app (`--port` to change it). The API and app
 * come from the same environment as the other examples (STOREFRONT_URL, STOREFRONT_CLIENT_ID, …); the page gets only
 * the client id.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { packageEntries } from '../../scripts/workspace-packages.js';
import { type Connection, connectionFromEnv } from '../shared/connection.js';
import type { ShopConfig } from './src/config.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const repo = here('../../');

/**
 * Builds the app into `outDir` (a production build: minified, hashed assets). The packages resolve to the
 * workspace's sources, as the other examples' do (an app gets them from node_modules, built).
 */
export async function buildReactShop(outDir: string): Promise<void> {
  await build({
    root: here('.'),
    configFile: false,
    // TanStack's "use client" directives are warned about, one by one, and mean nothing to a browser bundle.
    logLevel: 'error',
    resolve: {
      alias: packageEntries().map((entry) => ({
        find: new RegExp(`^${entry.name.replace(/[/.]/g, '\\$&')}$`),
        replacement: join(repo, entry.barrel),
      })),
    },
    // The page starts with a top-level await (its config, the offline worker).
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

/** A static server of the built app: its files, `/config.json`, MSW's worker script, and the page at any other path. */
export async function serveReactShop(outDir: string, config: ShopConfig, port = 8080): Promise<Server> {
  const worker = await readFile(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8');
  const index = await readFile(join(outDir, 'index.html'));
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname));
    const send = (type: string, body: string | Buffer, status = 200) =>
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    if (request.method !== 'GET' && request.method !== 'HEAD') return send('text/plain', 'Method not allowed\n', 405);
    if (path === '/config.json') return send(TYPES['.json']!, JSON.stringify(config));
    if (path === '/mockServiceWorker.js') return send(TYPES['.js']!, worker);
    if (path.startsWith('/assets/') && !path.includes('..')) {
      try {
        return send(TYPES[extname(path)] ?? 'application/octet-stream', await readFile(join(outDir, path)));
      } catch {
        return send('text/plain', 'Not found\n', 404);
      }
    }
    // `/`, `/callback` (the redirect URI) and anything else: the app, which reads the address itself.
    return send(TYPES['.html']!, index);
  });
  await new Promise<void>((listening, failed) => server.once('error', failed).listen(port, 'localhost', listening));
  return server;
}

/** The config of the offline mode: an origin that never resolves (RFC 2606), answered by the service worker. */
export const OFFLINE: ShopConfig = {
  baseUrl: 'http://storefront.invalid/v1',
  authUrl: 'http://storefront.invalid',
  clientId: 'offline',
  offline: true,
};

export function shopConfig(connection: Pick<Connection, 'baseUrl' | 'authUrl' | 'clientId'>): ShopConfig {
  return { baseUrl: connection.baseUrl, authUrl: connection.authUrl, clientId: connection.clientId };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { offline: { type: 'boolean' }, port: { type: 'string', default: '8080' } },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port: ${values.port} is no port`);
  const outDir = here('./dist');
  await buildReactShop(outDir);
  const config = values.offline ? OFFLINE : shopConfig(await connectionFromEnv(process.env));
  const server = await serveReactShop(outDir, config, port);
  const { port: bound } = server.address() as AddressInfo;
  const mode = values.offline ? 'offline: the API is mocked in the page' : `API ${config.baseUrl}`;
  console.log(`React shop on http://localhost:${bound} (${mode}; Ctrl-C to stop)`);
  process.once('SIGINT', () => server.close());
}
