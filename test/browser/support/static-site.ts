/** A static site for a test page on 127.0.0.1 and a free port: a few files by path, nothing else. */
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

export async function serveSite(files: Record<string, SiteFile>): Promise<StaticSite> {
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://localhost').pathname];
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store', ...file.headers });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}
