/**
 * `watchTheme` in this process, where what the bin cannot show is seen: the reads of a saved file, the attempt at a
 * kept file on its own, and its wait when the server asks for one. Against the reference server behind a proxy that
 * answers 503 when told to.
 */
import { openSync } from 'node:fs';
import { appendFile, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Client, type ClientOptions, clientCredentials, createClient } from '@storefront-platform/sdk';
import { pullTheme, type WatchEvent, type WatchOptions, watchTheme } from '@storefront-platform/themes';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ProxiedServer, startProxiedServer } from './helpers/failing-proxy.js';
import { DEMO, REDIRECT_URIS } from './helpers/server.js';

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  return { ...fs, readFile: vi.fn(fs.readFile), open: vi.fn(fs.open) };
});
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return { ...fs, openSync: vi.fn(fs.openSync) };
});

/**
 * Every path node:fs/promises' `readFile` or `open`, or node:fs' `openSync`, was asked for in this process, in
 * order: the folder's files are opened (never through a symbolic link) and read from the descriptor.
 */
const reads = () =>
  [vi.mocked(readFile).mock, vi.mocked(open).mock, vi.mocked(openSync).mock]
    .flatMap(({ calls, invocationCallOrder }) =>
      calls.map(([path], n) => [invocationCallOrder[n]!, String(path)] as const),
    )
    .sort(([a], [b]) => a - b)
    .map(([, path]) => path);

let proxied: ProxiedServer;
let dir: string;
beforeEach(async () => {
  proxied = await startProxiedServer({ products: 5, demo: { ...DEMO, redirectUris: REDIRECT_URIS } });
  dir = await mkdtemp(join(tmpdir(), 'storefront-themes-'));
  await pullTheme({ client: client(), dir, shop: 'northwind', development: true, create: true });
});
afterEach(async () => {
  await proxied.close();
  await rm(dir, { recursive: true, force: true });
});

function client(retry?: ClientOptions['retry']): Client {
  const { server } = proxied;
  const auth = clientCredentials({ authUrl: server.origin, ...DEMO, scope: 'admin' });
  return createClient({ baseUrl: server.baseUrl, auth, retry });
}

/** A watch started in this process, its events recorded, and a wait on them. */
async function startWatch(options: Omit<WatchOptions, 'dir' | 'onEvent' | 'signal'>) {
  const events: WatchEvent[] = [];
  const listeners = new Set<() => void>();
  const stop = new AbortController();
  const done = watchTheme({
    ...options,
    dir,
    signal: stop.signal,
    onEvent(event) {
      events.push(event);
      for (const listener of listeners) listener();
    },
  });
  /** The `count`-th event that `match` accepts, once it comes. */
  const waitFor = (match: (event: WatchEvent) => boolean, count = 1) =>
    new Promise<WatchEvent>((resolve, reject) => {
      const check = () => {
        const found = events.filter(match)[count - 1];
        if (!found) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no such event; got ${JSON.stringify(events.map((e) => e.type))}`));
      }, 15_000);
      listeners.add(check);
      check();
      done.catch(reject);
    });
  await waitFor((e) => e.type === 'ready');
  const finish = () => {
    stop.abort();
    return done;
  };
  return { events, waitFor, stop: finish };
}

const failedOf = (path: string) => (e: WatchEvent) => e.type === 'failed' && e.path === path;
const pushedOf = (path: string) => (e: WatchEvent) => e.type === 'pushed' && e.file.path === path;
const writesSince = (from: number) =>
  proxied.requests.slice(from).filter((r) => r.method !== 'GET' && r.path.startsWith('/v1/'));

describe('watchTheme', () => {
  it('reads a saved file once, to compare it and to send it', async () => {
    // A long quiet time, so that the save is one push even if the file system reports it as two changes.
    const watch = await startWatch({ client: client(), debounce: 500 });
    const layout = join(dir, 'layout.html');
    const from = reads().length;
    await appendFile(layout, '<!-- saved -->\n');
    await watch.waitFor(pushedOf('layout.html'));
    expect(
      reads()
        .slice(from)
        .filter((path) => path === layout),
    ).toHaveLength(1);
    expect(await watch.stop()).toEqual({ unsent: [], conflicts: [] });
  });

  it('sends a kept file again once on its own, then only with the next save', async () => {
    const watch = await startWatch({ client: client(), retryDelay: 50 });
    const from = proxied.requests.length;
    proxied.fail();
    await appendFile(join(dir, 'layout.html'), '<!-- saved during an outage -->\n');
    expect(await watch.waitFor(failedOf('layout.html'))).toMatchObject({ kept: true, waiting: 1, retryIn: 50 });
    const again = await watch.waitFor(failedOf('layout.html'), 2);
    expect(again).toMatchObject({ kept: true, waiting: 1 });
    expect(again).not.toHaveProperty('retryIn');
    // Two tries of three requests (the client's policy: a request and two retries), each retry announced.
    expect(writesSince(from).map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 503]);
    expect(watch.events.filter((e) => e.type === 'retrying')).toHaveLength(4);

    proxied.recover();
    await appendFile(join(dir, 'page.html'), '<!-- saved after it -->\n');
    await watch.waitFor(pushedOf('layout.html'));
    await watch.waitFor(pushedOf('page.html'));
    expect(writesSince(from).map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 503, 200, 200]);
    expect(await watch.stop()).toEqual({ unsent: [], conflicts: [] });
  });

  it('says a save of a file in conflict each time, not only the first', async () => {
    // No look at the server: the conflicts come from the saves alone.
    const sdk = client();
    const watch = await startWatch({ client: sdk, interval: 0 });
    const shop = (await sdk.root()).embedded('shops').find((s) => s.properties.subdomain === 'northwind')!;
    const theme = await (await (await shop.follow('self')).follow('svc:theme')).follow('svc:dev_theme');
    const page = theme.embedded('templates').find((t) => t.properties.file_name === 'page.html')!;
    await page.follow('svc:update_template', { body: '<p>theirs</p>\n' });
    const conflictOf = (e: WatchEvent) => e.type === 'conflict' && e.file.path === 'page.html';
    await appendFile(join(dir, 'page.html'), '<!-- mine -->\n');
    await watch.waitFor(conflictOf);
    await appendFile(join(dir, 'page.html'), '<!-- mine again -->\n');
    await watch.waitFor(conflictOf, 2);
    expect(await watch.stop()).toEqual({ unsent: [], conflicts: ['page.html'] });
  });

  it("waits as long as the server's Retry-After asks before trying a kept file on its own", async () => {
    // Without the client's retries, so that the server's wish reaches watch at once.
    const watch = await startWatch({ client: client(false), retryDelay: 50 });
    const from = proxied.requests.length;
    proxied.fail({ retryAfter: 120 });
    await appendFile(join(dir, 'layout.html'), '<!-- saved during a maintenance -->\n');
    expect(await watch.waitFor(failedOf('layout.html'))).toMatchObject({ kept: true, retryIn: 120_000 });
    expect(writesSince(from)).toHaveLength(1);
    // Stopped before then: the file is said to be unsent.
    expect(await watch.stop()).toEqual({ unsent: ['layout.html'], conflicts: [] });
  });
});
