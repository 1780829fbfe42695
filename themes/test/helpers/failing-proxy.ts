/**
 * A reference server behind a proxy that can answer the API's writes with 503, as a platform being deployed does,
 * and that counts every request reaching it. The server itself has no failure switch (the MSW handlers have one,
 * which a bin in another process cannot use), so the proxy stands in front of it: the server's `publicUrl` is the
 * proxy's address, so that the links it serves lead back through the proxy.
 */
import { createServer as createHttpServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, type ServerOptions, type StorefrontServer } from '@storefront-platform/server';

/** One request the proxy saw, and what it answered. */
export interface ProxiedRequest {
  method: string;
  path: string;
  status: number;
  /** `performance.now()` when it arrived. */
  at: number;
}

export interface ProxiedServer {
  server: StorefrontServer;
  /** Every request that reached the proxy, in order. */
  requests: ProxiedRequest[];
  /** Answers every write of the API (POST, PUT, DELETE under `/v1/`) with 503 from now on, `retryAfter` given. */
  fail(options?: { retryAfter?: number }): void;
  /** Forwards everything again. */
  recover(): void;
  close(): Promise<void>;
}

const isApiWrite = (method: string, path: string) => method !== 'GET' && method !== 'HEAD' && path.startsWith('/v1/');

export async function startProxiedServer(options: Omit<ServerOptions, 'port' | 'publicUrl'>): Promise<ProxiedServer> {
  const requests: ProxiedRequest[] = [];
  let failing: { retryAfter?: number } | undefined;
  let target: URL | undefined;
  const proxy: Server = createHttpServer((req, res) => {
    const [method, path] = [req.method ?? 'GET', req.url ?? '/'];
    const seen: ProxiedRequest = { method, path, status: 0, at: performance.now() };
    requests.push(seen);
    if (failing && isApiWrite(method, path)) {
      req.resume();
      seen.status = 503;
      const retryAfter = failing.retryAfter === undefined ? {} : { 'retry-after': String(failing.retryAfter) };
      res.writeHead(503, { 'content-type': 'application/json', ...retryAfter });
      res.end(JSON.stringify({ message: 'Service Unavailable' }));
      return;
    }
    const upstream = forward(
      { host: target!.hostname, port: target!.port, method, path, headers: req.headers },
      (answer) => {
        seen.status = answer.statusCode ?? 0;
        res.writeHead(seen.status, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => res.destroy(error));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  const server = await createServer({ ...options, port: 0, publicUrl: `http://127.0.0.1:${port}` });
  target = new URL(server.url);
  return {
    server,
    requests,
    fail(options = {}) {
      failing = options;
    },
    recover() {
      failing = undefined;
    },
    async close() {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await server.close();
    },
  };
}
