/**
 * A hostile server: a proxy over a real reference server that rewrites the JSON it answers (file names, sizes,
 * links) and may replace the bytes of a file, and a second origin standing for a foreign host, which links can be
 * rewritten to. Both keep every request they receive, headers and body, so that a test can say what left the
 * machine and where. The reference server's `publicUrl` is the proxy's address: every link leads back through it.
 */
import { createServer as createHttpServer, request as forward, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, type ServerOptions, type StorefrontServer } from '@storefront-platform/server';

/** A request one of the two origins received. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What the test changes in the answers: set, replaced or removed at any time. */
export interface Rewrites {
  /** Given each JSON document answered to a GET, with its path; returns the document to send instead. */
  json?: (document: Record<string, unknown>, path: string) => unknown;
  /** Given the path of each non-JSON GET; returns bytes to send instead, or `undefined` to forward it. */
  bytes?: (path: string) => Uint8Array | undefined;
  /** Given each JSON document answered to a write (POST, PUT, PATCH), with its path; returns the one to send. */
  written?: (document: Record<string, unknown>, path: string) => unknown;
  /** Whether a GET of `path` is never answered (a host that hangs): the request is kept open until closed. */
  hang?: (path: string) => boolean;
}

export interface HostileServer {
  server: StorefrontServer;
  /** The proxy's origin: what the CLI logs in to. */
  origin: string;
  /** The foreign origin: it serves the reference server's files too, without asking for any token. */
  foreign: string;
  rewrites: Rewrites;
  /** Every request the proxy received, in order. */
  seen: SeenRequest[];
  /** Every request the foreign origin received, in order. */
  seenAbroad: SeenRequest[];
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startHostileServer(options: Omit<ServerOptions, 'port' | 'publicUrl'>): Promise<HostileServer> {
  let target: URL | undefined;
  const rewrites: Rewrites = {};
  const seen: SeenRequest[] = [];
  const seenAbroad: SeenRequest[] = [];

  /** Forwards `req` to the reference server, rewriting the answer when the test asks to. */
  const relay = (log: SeenRequest[], rewrite: boolean) =>
    createHttpServer(async (req, res) => {
      const [method, path] = [req.method ?? 'GET', req.url ?? '/'];
      const body = await bodyOf(req);
      log.push({ method, path, headers: req.headers, body: body.toString('utf8') });
      if (rewrite && method === 'GET' && rewrites.hang?.(path)) return;
      const replaced = rewrite && method === 'GET' ? rewrites.bytes?.(path) : undefined;
      if (replaced) {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': replaced.byteLength });
        res.end(replaced);
        return;
      }
      const headers = { ...req.headers, 'accept-encoding': 'identity' };
      const upstream = forward(
        { host: target!.hostname, port: target!.port, method, path, headers },
        async (answer) => {
          const json = /json/.test(answer.headers['content-type'] ?? '');
          const rewriter = method === 'GET' ? rewrites.json : method === 'DELETE' ? undefined : rewrites.written;
          if (!(rewrite && json && rewriter && answer.statusCode! < 300)) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const document = JSON.parse((await bodyOf(answer)).toString('utf8'));
          const text = JSON.stringify(rewriter(document, path));
          // Validators of the original would let a cache keep the rewritten copy against the real one.
          const { etag: _etag, 'last-modified': _modified, ...kept } = answer.headers;
          res.writeHead(answer.statusCode!, {
            ...kept,
            'content-length': Buffer.byteLength(text),
            'cache-control': 'no-store',
          });
          res.end(text);
        },
      );
      upstream.on('error', (error) => res.destroy(error));
      upstream.end(body);
    });

  const proxy = relay(seen, true);
  const abroad = relay(seenAbroad, false);
  const [origin, foreign] = [await listen(proxy), await listen(abroad)];
  const server = await createServer({ ...options, port: 0, publicUrl: origin });
  target = new URL(server.url);
  return {
    server,
    origin,
    foreign,
    rewrites,
    seen,
    seenAbroad,
    async close() {
      for (const one of [proxy, abroad]) {
        one.closeAllConnections();
        await new Promise((resolve) => one.close(resolve));
      }
      await server.close();
    },
  };
}
