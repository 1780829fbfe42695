/**
 * A proxy in front of a reference server (node:http on port 0) that plants one change in what the server answers:
 * what an API that drifted from the contract would send. Start it first, then the server with the proxy's origin
 * as its public URL, so that every link leads through the proxy.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer on its way back, which a plant may change (`body` parsed when JSON). */
export interface Answer {
  /** The request's path and query. */
  path: string;
  /** The request's headers (lower-case names). */
  request: IncomingMessage['headers'];
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: plants reach into the JSON they change
  body: any;
}

/** A change to plant: it may change the request forwarded (its headers) and the answer. */
export interface Plant {
  request?(path: string, headers: Headers): void;
  answer?(answer: Answer): void;
}

export interface PlantingProxy {
  origin: string;
  /** Where requests go (the server's origin), set once the server runs. */
  target: string;
  /** The change planted now; none forwards as is. */
  plant: Plant | undefined;
  close(): Promise<void>;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'host'];

export async function startPlantingProxy(): Promise<PlantingProxy> {
  const proxy: PlantingProxy = { origin: '', target: '', plant: undefined, close: async () => undefined };
  const server: Server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined || HOP_BY_HOP.includes(name) || name === 'accept-encoding') continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const path = req.url ?? '/';
      proxy.plant?.request?.(path, headers);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const upstream = await fetch(proxy.target + path, { method: req.method, headers, body });
      const out = new Headers(upstream.headers);
      for (const name of HOP_BY_HOP) out.delete(name);
      let bytes = Buffer.from(await upstream.arrayBuffer());
      const json = /json/.test(out.get('content-type') ?? '') && bytes.length > 0;
      const answer: Answer = {
        path,
        request: req.headers,
        status: upstream.status,
        headers: out,
        body: json ? JSON.parse(bytes.toString('utf8')) : undefined,
      };
      if (req.method === 'GET') proxy.plant?.answer?.(answer);
      if (json) bytes = Buffer.from(JSON.stringify(answer.body));
      const sent: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        sent[name] = value;
      });
      if (answer.status !== 304 && answer.status !== 204) sent['content-length'] = String(bytes.length);
      res.writeHead(answer.status, sent);
      res.end(answer.status === 304 || answer.status === 204 ? undefined : bytes);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return proxy;
}
