/**
 * The control API over real HTTP on a JSON data directory: the token guard, no CORS, the HAL resource and its
 * operations (reset, snapshots, the clock, the journal), and nothing of it when `control` is off.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
let server: StorefrontServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(control: boolean) {
  const dir = await tempDir();
  server = await createServer({ port: 0, data: join(dir, 'db.json'), products: 5, control, explorer: false });
  return server;
}

function call(method: string, url: string, token: string | undefined, body?: unknown) {
  return fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function adminToken(s: StorefrontServer): Promise<string> {
  const { clientId, clientSecret } = s.credentials!;
  const response = await fetch(`${s.origin}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      scope: 'admin',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

describe('the control API', () => {
  it('is a 404 and absent from the root when control is off', async () => {
    const s = await start(false);
    expect(s.control).toBeUndefined();
    expect((await call('GET', `${s.origin}/_sandbox`, 'anything')).status).toBe(404);
    const root = await (await fetch(`${s.baseUrl}/`)).text();
    expect(root).not.toContain('_sandbox');
  });

  it('answers 401 without the token, with no CORS headers, and a preflight gets none either', async () => {
    const s = await start(true);
    const url = s.control!.url;
    for (const token of [undefined, 'wrong-token-0123456789']) {
      const response = await call('GET', url, token);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { _class: string[] })._class).toEqual(['errors']);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://evil.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    const root = await (await fetch(`${s.baseUrl}/`)).text();
    expect(root).not.toContain('_sandbox');
  });

  it('links its operations, and snapshots, restores and resets the data', async () => {
    const s = await start(true);
    const { url, token } = s.control!;
    const home = (await (await call('GET', url, token)).json()) as { _links: Record<string, { href: string }> };
    expect(Object.keys(home._links)).toEqual(expect.arrayContaining(['reset', 'snapshots', 'clock', 'journal']));
    const products = () => s.store.all('products').map((p) => p.title);
    const seeded = products();
    const first = s.store.all('products')[0]!;
    // A product added and one changed, as any write of the store would.
    const product = (title: string) =>
      s.store.write((tx) => {
        const { id: _, ...fields } = first;
        tx.insert('products', { ...fields, title });
        tx.update('products', first.id, { title: `${title} (changed)` });
      });
    await product('Before the snapshot');
    const taken = await call('PUT', `${url}/snapshots/one`, token);
    expect(taken.status).toBe(201);
    await product('After the snapshot');
    expect(products()).toContain('After the snapshot');
    const list = (await (await call('GET', `${url}/snapshots`, token)).json()) as { snapshots: { name: string }[] };
    expect(list.snapshots.map((x) => x.name)).toEqual(['one']);

    expect((await call('POST', `${url}/snapshots/one/restore`, token)).status).toBe(204);
    expect(products()).toContain('Before the snapshot');
    expect(products()).toContain('Before the snapshot (changed)');
    expect(products()).not.toContain('After the snapshot');
    expect(products()).not.toContain('After the snapshot (changed)');

    expect((await call('POST', `${url}/reset`, token)).status).toBe(204);
    expect(products()).toEqual(seeded);

    expect((await call('DELETE', `${url}/snapshots/one`, token)).status).toBe(204);
    const gone = await call('POST', `${url}/snapshots/one/restore`, token);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { message: string }).message).toContain('No snapshot named "one"');
    expect((await call('PUT', `${url}/snapshots/${encodeURIComponent('bad name')}`, token)).status).toBe(400);
  });

  it('sets and advances the clock that token expiry follows', async () => {
    const s = await start(true);
    const { url, token } = s.control!;
    const bearer = await adminToken(s);
    expect((await fetch(`${s.baseUrl}/`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(200);
    const set = await call('PUT', `${url}/clock`, token, { now: '2030-01-01T00:00:00Z' });
    expect(set.status).toBe(200);
    const clock = (await set.json()) as { epoch_ms: number };
    expect(clock.epoch_ms).toBeGreaterThanOrEqual(Date.parse('2030-01-01T00:00:00Z'));
    // An hour's token, years later: expired.
    expect((await fetch(`${s.baseUrl}/`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(401);
    const advanced = (await (await call('POST', `${url}/clock/advance`, token, { ms: 86_400_000 })).json()) as {
      epoch_ms: number;
    };
    expect(advanced.epoch_ms - clock.epoch_ms).toBeGreaterThanOrEqual(86_400_000);
    expect((await call('PUT', `${url}/clock`, token, { now: 'soon' })).status).toBe(400);
    expect((await call('POST', `${url}/clock/advance`, token, { ms: 'x' })).status).toBe(400);
    // Past the dates a `Date` holds, every answer would fail: refused, and the clock stays where it was.
    expect((await call('PUT', `${url}/clock`, token, { now: 1e300 })).status).toBe(400);
    expect((await call('POST', `${url}/clock/advance`, token, { ms: 8.64e15 })).status).toBe(400);
    expect((await call('POST', `${url}/clock/advance`, token, { ms: -1e17 })).status).toBe(400);
    const after = (await (await call('GET', `${url}/clock`, token)).json()) as { epoch_ms: number };
    expect(after.epoch_ms - advanced.epoch_ms).toBeLessThan(60_000);
    expect((await fetch(`${s.baseUrl}/`)).status).toBe(401);
  });

  it('answers a body over the shell’s limit with 413, and takes the next request', async () => {
    const s = await start(true);
    const { url, token } = s.control!;
    const huge = { kind: 'status', status: 503, body: 'x'.repeat(3 * 1024 * 1024) };
    const refused = await call('POST', `${url}/faults`, token, huge);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { message: string }).message).toContain('larger than');
    expect((await call('GET', `${url}/faults`, token)).status).toBe(200);
  });

  it('journals requests with their route, app and user, filters and clears them', async () => {
    const s = await start(true);
    const { url, token } = s.control!;
    const bearer = await adminToken(s);
    await fetch(`${s.baseUrl}/`, { headers: { authorization: `Bearer ${bearer}`, 'x-request-id': 'req-1' } });
    await fetch(`${s.baseUrl}/nowhere`);
    type Entries = {
      entries: {
        method: string;
        path: string;
        status: number;
        route: string | null;
        request_id: string | null;
        app_id: string | null;
      }[];
    };
    const all = (await (await call('GET', `${url}/journal`, token)).json()) as Entries;
    const root = all.entries.find((e) => e.request_id === 'req-1')!;
    expect(root).toMatchObject({ method: 'GET', path: '/v1/', status: 200, app_id: s.store.all('apps')[0]!.id });
    expect(root.route).toMatch(/^GET \/v1/);
    expect(all.entries.some((e) => e.route === 'oauth /oauth/token')).toBe(true);
    expect(all.entries.some((e) => e.path.startsWith('/_sandbox'))).toBe(false);
    const missing = (await (await call('GET', `${url}/journal?status=404`, token)).json()) as Entries;
    expect(missing.entries).toEqual([expect.objectContaining({ path: '/v1/nowhere', route: null })]);
    const byPath = (await (await call('GET', `${url}/journal?method=post&path=/oauth`, token)).json()) as Entries;
    expect(byPath.entries.map((e) => e.path)).toEqual(['/oauth/token']);
    expect((await call('DELETE', `${url}/journal`, token)).status).toBe(204);
    expect(((await (await call('GET', `${url}/journal`, token)).json()) as Entries).entries).toEqual([]);
  });
});
