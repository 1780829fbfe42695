/**
 * Credentials stay home: on real HTTP servers (one per origin), `Authorization` goes to the API's origin, the token
 * endpoint's and the `trustedOrigins`, never to another origin a link names, nor through a redirect to one.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  type CacheStore,
  type Client,
  clientCredentials,
  createClient,
  createHttpCache,
  createMemoryCacheStore,
  type Entity,
  UnauthorizedError,
} from '@storefront-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A server on its own loopback port, so its own origin; records the `Authorization` of each request by path. */
interface Origin {
  server: Server;
  origin: string;
  /** Path → the `Authorization` header of its last request (`null`: none). */
  seen: Map<string, string | null>;
}

async function origin(handle: Handler): Promise<Origin> {
  const seen = new Map<string, string | null>();
  const server = createServer((request, response) => {
    seen.set(request.url!, request.headers.authorization ?? null);
    handle(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { server, origin: `http://127.0.0.1:${port}`, seen };
}

const hal = (response: ServerResponse, body: object, status = 200) => {
  response.writeHead(status, { 'content-type': 'application/hal+json', etag: '"1"' });
  response.end(JSON.stringify(body));
};
const redirect = (response: ServerResponse, location: string) => {
  response.writeHead(302, { location });
  response.end();
};

let api: Origin;
let auth: Origin;
let foreign: Origin;
let cdn: Origin;
let tokenRequests = 0;

beforeAll(async () => {
  // Answers any path with a small document; /private with 401.
  const documents: Handler = (request, response) =>
    request.url === '/private'
      ? hal(response, { message: 'who are you?' }, 401)
      : hal(response, { _links: { self: { href: request.url } } });
  foreign = await origin(documents);
  cdn = await origin(documents);
  auth = await origin((request, response) => {
    if (request.url !== '/oauth/token') return documents(request, response);
    tokenRequests++;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ access_token: `T${tokenRequests}`, token_type: 'bearer', expires_in: 3600 }));
  });
  api = await origin((request, response) => {
    if (request.url === '/v1/elsewhere') return redirect(response, `${foreign.origin}/moved`);
    if (request.url === '/v1/here') return redirect(response, '/v1/moved');
    if (request.url !== '/v1/') return documents(request, response);
    hal(response, {
      _links: {
        self: { href: '/v1/' },
        file: { href: `${foreign.origin}/asset.png` },
        private: { href: `${foreign.origin}/private` },
        cdn: { href: `${cdn.origin}/asset.png` },
        account: { href: `${auth.origin}/account` },
        elsewhere: { href: '/v1/elsewhere' },
        here: { href: '/v1/here' },
      },
    });
  });
});
afterAll(() => {
  for (const { server } of [api, auth, foreign, cdn]) server?.close();
});

/** A client on the API with a token of the auth origin, trusting the CDN; `keys` lists what its cache stores. */
function client(): { client: Client; keys: string[] } {
  const keys: string[] = [];
  const memory = createMemoryCacheStore();
  const store: CacheStore = {
    get: (key) => memory.get(key),
    set: (key, entry) => {
      keys.push(key);
      return memory.set(key, entry);
    },
    delete: (key) => memory.delete(key),
  };
  const strategy = clientCredentials({ authUrl: auth.origin, clientId: 'app', clientSecret: 's3cret' });
  const cache = createHttpCache({ store });
  return {
    client: createClient({ baseUrl: `${api.origin}/v1/`, auth: strategy, cache, trustedOrigins: [cdn.origin] }),
    keys,
  };
}

const root = async (c: Client) => (await c.root()) as unknown as Entity;

describe('credentials stay home', () => {
  it('sends the token to the API, the token endpoint origin and the trusted origins, and no other', async () => {
    const { client: c, keys } = client();
    const home = await root(c);
    for (const rel of ['file', 'cdn', 'account']) await home.follow(rel);
    expect(api.seen.get('/v1/')).toMatch(/^Bearer T\d+$/);
    expect(cdn.seen.get('/asset.png')).toBe(api.seen.get('/v1/'));
    expect(auth.seen.get('/account')).toBe(api.seen.get('/v1/'));
    expect(foreign.seen.get('/asset.png')).toBeNull();
    // What was fetched without credentials is cached as such: in the anonymous partition, not the token owner's.
    expect(keys).toContain(`anonymous ${foreign.origin}/asset.png`);
    expect(keys).toContain(`${encodeURIComponent('client:app:')} ${cdn.origin}/asset.png`);
  });

  it('answers a 401 of a foreign origin with an UnauthorizedError, without a token request', async () => {
    const { client: c } = client();
    const home = await root(c);
    const before = tokenRequests;
    await expect(home.follow('private')).rejects.toBeInstanceOf(UnauthorizedError);
    expect(foreign.seen.get('/private')).toBeNull();
    expect(tokenRequests).toBe(before);
  });

  it('drops the token on a redirect to another origin (fetch does), keeps it on one within the API', async () => {
    const { client: c } = client();
    const home = await root(c);
    await home.follow('elsewhere');
    await home.follow('here');
    expect(api.seen.get('/v1/elsewhere')).toMatch(/^Bearer /);
    expect(foreign.seen.get('/moved')).toBeNull();
    expect(api.seen.get('/v1/moved')).toMatch(/^Bearer /);
  });
});
