/**
 * Builds the browser example (the page script bundled with the SDK by esbuild) and serves it as static files:
 *
 *   npm run example:browser            then open http://localhost:8080
 *
 * Port 8080 matches the redirect URIs of the reference server's demo app. The API and app come from the same
 * environment as the other examples (STOREFRONT_URL, STOREFRONT_CLIENT_ID, …); the page gets only the client id.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Connection, connectionFromEnv } from '../shared/connection.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * `app.ts` and the SDK it imports, as one ES module for browsers. Fails when anything in it imports a
 * `node:` module, since browsers have none.
 */
export async function buildApp(): Promise<string> {
  const result = await build({
    entryPoints: [here('./app.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
    // The package's public name, resolved to its sources (the published package resolves it to `dist/`).
    alias: { '@storefront-platform/sdk': here('../../sdk/src/index.ts') },
  });
  return result.outputFiles[0]!.text;
}

/** A static server of the example: the page (also at `/callback`, the redirect URI), its script and its config. */
export async function serveBrowserExample(
  connection: Pick<Connection, 'baseUrl' | 'authUrl' | 'clientId'>,
  port = 8080,
): Promise<Server> {
  const files: Record<string, { type: string; body: string }> = {
    '/': { type: 'text/html; charset=utf-8', body: await readFile(here('./index.html'), 'utf8') },
    '/app.js': { type: 'text/javascript; charset=utf-8', body: await buildApp() },
    '/config.json': {
      type: 'application/json; charset=utf-8',
      body: JSON.stringify({ baseUrl: connection.baseUrl, authUrl: connection.authUrl, clientId: connection.clientId }),
    },
  };
  files['/callback'] = files['/']!;
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://localhost').pathname];
    if (!file || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(file ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  });
  await new Promise<void>((listening, failed) => server.once('error', failed).listen(port, 'localhost', listening));
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await serveBrowserExample(await connectionFromEnv(process.env));
  const { port } = server.address() as AddressInfo;
  console.log(`Browser example on http://localhost:${port} (Ctrl-C to stop)`);
  process.once('SIGINT', () => server.close());
}
