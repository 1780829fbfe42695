import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../test/support/manual-clock.js';
import { createServer, type Store, type StorefrontServer, seed } from '../src/index.js';
import { createMemoryStore } from '../src/store/memory.js';
import { useTempDir } from './helpers/temp-dir.js';
import { clientToken, grantedToken, tokenRequest, useTestServer } from './helpers/test-server.js';

const tempDir = useTempDir();
const servers: StorefrontServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: Parameters<typeof createServer>[0] = {}): Promise<StorefrontServer> {
  const server = await createServer({ port: 0, products: 30, ...options });
  servers.push(server);
  return server;
}

function passwordGrant(server: StorefrontServer, login: string, password: string): Promise<Response> {
  return tokenRequest(server.origin, { grant_type: 'password', username: login, password }, server.credentials);
}

const root = (server: StorefrontServer, token: string) =>
  fetch(`${server.baseUrl}/`, { headers: { authorization: `Bearer ${token}` } });

describe('createServer with its defaults (through useTestServer)', () => {
  const server = useTestServer();

  it('serves seeded demo data from memory on a free port', async () => {
    const { url, origin, baseUrl, seeded, store, credentials } = server();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toBe('http://127.0.0.1:0');
    expect(origin).toBe(url);
    expect(baseUrl).toBe(`${url}/v1`);
    expect(seeded).toBe(true);
    expect(store.all('products')).toHaveLength(30);
    const token = await clientToken(server());
    expect((await root(server(), token)).status).toBe(200);
    expect((await passwordGrant(server(), credentials!.login, credentials!.password!)).status).toBe(200);
  });

  it('serves a preview of each demo shop theme in which every file the layout references resolves', async () => {
    const token = await clientToken(server());
    const { store } = server();
    const demoUser = store.all('apps')[0]!.owner_id;
    for (const shop of store.where('shops', 'owner_id', demoUser)) {
      const theme = await fetch(`${server().baseUrl}/shops/${shop.id}/theme.json`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const preview = (await theme.json())._links['svc:theme_preview'].href;
      const page = await fetch(preview);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      const references = [...html.matchAll(/(?:href|src)="([^"#]+)"/g)].map((m) => m[1]!);
      expect(references.length).toBeGreaterThan(5);
      for (const reference of references) {
        const file = await fetch(new URL(reference, preview));
        expect([reference, file.status]).toEqual([reference, 200]);
      }
    }
  });
});

describe('createServer', () => {
  it('keeps tokens and data in the JSON file across a restart', async () => {
    const data = join(await tempDir(), 'db.json');
    const first = await createServer({ port: 0, data, products: 30, demo: { password: 'pw-1' } });
    expect(first.seeded).toBe(true);
    const token = await clientToken(first);
    const theme = first.store.all('themes')[0]!;
    const created = await fetch(`${first.baseUrl}/themes/${theme.id}/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ file_name: 'restart.html', body: '<p>kept</p>' }),
    });
    expect(created.status).toBe(201);
    const credentials = first.credentials!;
    await first.close();

    const second = await createServer({ port: 0, data, products: 999 });
    servers.push(second);
    expect(second.seeded).toBe(false);
    expect(second.store.all('products')).toHaveLength(30);
    expect(second.credentials).toEqual({ ...credentials, password: undefined });
    expect((await root(second, token)).status).toBe(200);
    expect(second.store.where('templates', 'file_name', 'restart.html').map((t) => t.body)).toEqual(['<p>kept</p>']);
    expect((await passwordGrant(second, credentials.login, 'pw-1')).status).toBe(200);
  });

  it('applies given demo credentials over existing data, and re-seeds on reset', async () => {
    const data = join(await tempDir(), 'db.json');
    await (await createServer({ port: 0, data, products: 3 })).close();
    const server = await start({ data, demo: { password: 'new password', clientSecret: 'new-secret' } });
    expect(server.credentials).toMatchObject({ password: 'new password', clientSecret: 'new-secret' });
    expect((await passwordGrant(server, server.credentials!.login, 'new password')).status).toBe(200);
    await clientToken(server);
    await server.close();

    const reset = await start({ data, reset: true, products: 7 });
    expect(reset.seeded).toBe(true);
    expect(reset.store.all('products')).toHaveLength(7);
    expect(reset.credentials?.clientSecret).not.toBe('new-secret');
  });

  it('links with the public URL when given one', async () => {
    const server = await start({ publicUrl: 'https://shop-api.example' });
    expect(server.origin).toBe('https://shop-api.example');
    expect(server.baseUrl).toBe('https://shop-api.example/v1');
    const token = await grantedToken({ ...server, origin: server.url }, { grant_type: 'client_credentials' });
    const body = await (await root({ ...server, baseUrl: `${server.url}/v1` }, token)).text();
    expect(body).toContain('https://shop-api.example/v1');
    expect(body).not.toContain(server.url);
  });

  it('uses the given clock and token lifetime', async () => {
    const clock = manualClock(Date.UTC(2030, 0, 1));
    const server = await start({ clock, tokenTtl: 60 });
    const token = await clientToken(server);
    expect((await root(server, token)).status).toBe(200);
    clock.advance(61_000);
    const expired = await root(server, token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('serves a ready store without closing it, and a ready data set', async () => {
    const store = createMemoryStore();
    const server = await start({ data: store });
    expect(server.credentials).toBeUndefined();
    expect(server.seeded).toBe(false);
    await server.close();
    await expect(store.write(() => 1)).resolves.toBe(1);

    const withData = await start({ data: { shops: [] } });
    expect(withData.store.all('shops')).toEqual([]);
  });

  it('rejects bad options before listening, and a port in use', async () => {
    await expect(createServer({ port: -1 })).rejects.toThrow(/port/);
    await expect(createServer({ port: 0, tokenTtl: 0 })).rejects.toThrow(/tokenTtl/);
    await expect(createServer({ port: 0, publicUrl: 'https://x.example/api' })).rejects.toThrow(/publicUrl/);
    await expect(createServer({ port: 0, publicUrl: 'not a url' })).rejects.toThrow(/publicUrl/);
    const taken = await start();
    await expect(createServer({ port: Number(new URL(taken.url).port) })).rejects.toThrow(/EADDRINUSE/);
  });

  it('lets an in-flight request finish on close', async () => {
    const { dataset, credentials } = seed({ products: 3 });
    const store = createMemoryStore(dataset);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let writes = 0;
    let started = false;
    // Holds the token write in the queue so that the request is surely in flight when close() is called (the
    // writes of the start itself, the explorer's client, pass).
    const gated: Store = {
      ...store,
      write: async (fn) => {
        if (started) {
          writes++;
          await gate;
        }
        return store.write(fn);
      },
    };
    const server = await createServer({ port: 0, data: gated });
    started = true;
    const pending = tokenRequest(server.origin, { grant_type: 'client_credentials' }, credentials);
    while (writes === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    // A latch, not a delay: once a new connection is refused the listener is closed, and only the request in
    // flight (held in the write queue) can keep close() pending.
    await expect(fetch(`${server.url}/v1/`)).rejects.toThrow();
    expect(closed).toBe(false);
    release();
    expect((await pending).status).toBe(200);
    await closing;
    expect(store.all('tokens')).toHaveLength(1);
    await expect(fetch(`${server.url}/v1/`)).rejects.toThrow();
  });
});
