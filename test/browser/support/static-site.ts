/** A static site for a test page on a free port of 127.0.0.1 (or `localhost`): a few files by path, nothing else. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One file of the site. */
export interface SiteFile {
  type: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
}

/** A running site: its origin, and `close`. */
export interface StaticSite {
  origin: string;
  close(): Promise<void>;
}

/** `host`: `localhost` serves the site as dev servers (Vite) do, at `http://localhost:PORT`. */
export async function serveSite(
  files: Record<string, SiteFile>,
  host: '127.0.0.1' | 'localhost' = '127.0.0.1',
): Promise<StaticSite> {
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://localhost').pathname];
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store', ...file.headers });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  });
  await new Promise<void>((listening) => server.listen(0, host, listening));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    close: () =>
      new Promise((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}
