/** Every example's `main`, run against a fresh reference server, with its output checked. */
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientCredentials, createClient, type Root } from '@storefront-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as clientCredentialsExample } from '../../examples/client-credentials/index.js';
import { main as devTheme } from '../../examples/dev-theme/index.js';
import { main as fleet, fromArgs as fromFleetArgs } from '../../examples/fleet/index.js';
import { REDIS_CLIENTS, type RedisClientName } from '../../examples/fleet/redis.js';
import { main as keepAlive } from '../../examples/keep-alive/index.js';
import { main as listProducts } from '../../examples/list-products/index.js';
import { main as themeSync } from '../../examples/theme-sync/index.js';
import { REDIS_SERVER, type RedisServer, startRedisServer } from '../support/redis-server.js';
import { skipWithout } from '../support/requirement.js';
import { type ExampleServer, startExampleServer } from './server.js';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let example: ExampleServer;
let temp: string;

/** The demo user's view, to check what the examples did. */
async function adminRoot(): Promise<Root> {
  const options = example.options([]);
  const auth = clientCredentials({ ...options, scope: 'admin' });
  return createClient({ baseUrl: options.baseUrl, auth }).root();
}

async function productionTheme() {
  const shop = await (await adminRoot()).embedded('shops')[0]!.follow('self');
  return shop.follow('svc:theme');
}

beforeAll(async () => {
  example = await startExampleServer();
  temp = await mkdtemp(join(tmpdir(), 'storefront-examples-'));
});

afterAll(async () => {
  await example?.server.close();
  if (temp) await rm(temp, { recursive: true, force: true });
});

describe('list-products', () => {
  it('lists every product of the shop, page by page', async () => {
    const lines: string[] = [];
    const result = await listProducts({ ...example.options(lines), perPage: 7 });
    const shop = await (await adminRoot()).embedded('shops')[0]!.follow('self');
    // The example reads with a `public` token, which sees visible products only.
    const total = (await shop.follow('svc:products', { status: 'visible', per_page: 1 })).properties.total_items;
    expect(total).toBeGreaterThan(7);
    expect(result.shop).toBe(shop.properties.name);
    expect(result.titles).toHaveLength(total);
    expect(result.pages).toBe(Math.ceil(total / 7));
    expect(lines[0]).toBe(`${shop.properties.name}: ${total} products`);
    expect(lines).toContain(`— page ${result.pages} of ${result.pages}`);
    for (const title of result.titles) expect(lines.some((line) => line.includes(title))).toBe(true);
  });

  it('filters by a query', async () => {
    const shop = (await adminRoot()).embedded('shops')[0]!;
    const firstWord = (
      await (await shop.follow('self')).follow('svc:products', { per_page: 1 })
    ).pageItems[0]!.properties.title.split(' ')[0]!;
    const lines: string[] = [];
    const result = await listProducts({ ...example.options(lines), shop: shop.properties.subdomain, query: firstWord });
    expect(result.shop).toBe(shop.properties.name);
    expect(result.titles.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(new RegExp(`^${shop.properties.name}: \\d+ products matching "${firstWord}"$`));
  });

  it("does not offer the user's non-public shop to its public token", async () => {
    const hidden = (await adminRoot()).embedded('shops').find((shop) => shop.properties.subdomain === 'copper-kettle');
    expect(hidden).toBeDefined();
    await expect(listProducts({ ...example.options([]), shop: 'copper-kettle' })).rejects.toThrow(
      /No shop "copper-kettle" among the shops .* administers \(northwind\)/,
    );
  });

  it('says which shops exist when asked for another', async () => {
    await expect(listProducts({ ...example.options([]), shop: 'no-such-shop' })).rejects.toThrow(/northwind/);
  });
});

describe('theme-sync', () => {
  it('pulls the theme with storefront-themes, pushes local creations, edits, deletions and uploads, and reports conflicts', async () => {
    const dir = join(temp, 'theme');
    const pullLines: string[] = [];
    const pulled = await themeSync({ ...example.options(pullLines), command: 'pull', dir });
    const theme = await productionTheme();
    const templates = theme.embedded('templates');
    const assets = theme.embedded('assets');
    expect(pulled).toHaveLength(templates.length + assets.length);
    expect(pulled.every((file) => file.action === 'created')).toBe(true);
    expect(await readFile(join(dir, 'layout.html'), 'utf8')).toBe(
      templates.find((t) => t.properties.file_name === 'layout.html')!.properties.body,
    );
    const asset = assets[0]!;
    const bytes = await readFile(join(dir, 'assets', asset.properties.file_name));
    expect(bytes.length).toBe(asset.properties.file_size);
    expect(pullLines.at(-1)).toBe(`Pulled "${theme.properties.title}" of Northwind Outfitters: ${pulled.length} files`);

    // Local work: edit one template, add one, delete one; replace an asset and add one.
    const deletable = templates.find((t) => t.can('svc:delete_template'))!.properties.file_name;
    await writeFile(join(dir, 'layout.html'), '<!doctype html>\n<title>edited locally</title>\n<body>\n</body>\n');
    await writeFile(join(dir, 'promo.html'), '<p>new</p>\n');
    await unlink(join(dir, deletable));
    await writeFile(join(dir, 'assets', asset.properties.file_name), PNG);
    await writeFile(join(dir, 'assets/badge.png'), PNG);

    const lines: string[] = [];
    const pushed = await themeSync({ ...example.options(lines), command: 'push', dir });
    expect(Object.fromEntries(pushed.map((file) => [file.path, file.action]))).toEqual({
      'layout.html': 'updated',
      'promo.html': 'created',
      [deletable]: 'deleted',
      [`assets/${asset.properties.file_name}`]: 'updated',
      'assets/badge.png': 'created',
    });
    expect(lines).toContain('  created   promo.html');
    expect(lines.at(-1)).toBe(`Pushed "${theme.properties.title}" of Northwind Outfitters: 5 files`);

    const after = await theme.follow('self');
    const byName = new Map(after.embedded('templates').map((t) => [t.properties.file_name, t.properties.body]));
    expect(byName.get('layout.html')).toContain('edited locally');
    expect(byName.get('promo.html')).toBe('<p>new</p>\n');
    expect(byName.has(deletable)).toBe(false);
    const badge = after.embedded('assets').find((a) => a.properties.file_name === 'badge.png');
    expect(badge?.properties.file_size).toBe(PNG.length);

    // Nothing changed locally: nothing to send.
    expect(await themeSync({ ...example.options([]), command: 'push', dir })).toEqual([]);

    // Someone edits promo.html on the server (a second later, so that `updated_on` moves); a local edit then conflicts.
    example.advance(1000);
    const promo = after.embedded('templates').find((t) => t.properties.file_name === 'promo.html')!;
    await promo.follow('svc:update_template', { body: '<p>theirs</p>\n' });
    await writeFile(join(dir, 'promo.html'), '<p>mine</p>\n');
    const conflictLines: string[] = [];
    const conflicted = await themeSync({ ...example.options(conflictLines), command: 'push', dir });
    expect(conflicted).toEqual([expect.objectContaining({ path: 'promo.html', action: 'conflict' })]);
    expect(conflictLines).toContain('  conflict  promo.html: changed on the server too');
    expect((await promo.follow('self')).properties.body).toBe('<p>theirs</p>\n');
  });
});

describe('dev-theme', () => {
  it('creates the development theme once, changes its layout and previews it, leaving production alone', async () => {
    const production = await productionTheme();
    const layout = production.embedded('templates').find((t) => t.properties.file_name === 'layout.html')!;
    const lines: string[] = [];
    const first = await devTheme({ ...example.options(lines), message: 'Autumn sale <soon>' });
    expect(first.created).toBe(true);
    expect(lines[0]).toMatch(/^Created the development theme ".+ \(development\)"/);
    expect(lines.at(-1)).toBe(`Preview (shows the change): ${first.previewUrl}`);
    const page = await (await fetch(first.previewUrl)).text();
    expect(page).toContain('Autumn sale &#60;soon&#62;');

    const second = await devTheme({ ...example.options([]), message: 'Winter sale' });
    expect(second).toEqual({ created: false, previewUrl: first.previewUrl });
    const again = await (await fetch(first.previewUrl)).text();
    expect(again).toContain('Winter sale');
    expect(again).not.toContain('Autumn sale');
    const productionLayout = (await layout.follow('self')).properties.body;
    expect(productionLayout).not.toContain('data-dev-banner');
  });
});

describe('client-credentials', () => {
  it('reports revenue per shop, and revalidates everything from the cache on the second run', async () => {
    const lines: string[] = [];
    const result = await clientCredentialsExample({ ...example.options(lines), status: 'paid' });
    const shops = (await adminRoot()).embedded('shops');
    expect(result.report.map((line) => line.shop)).toEqual(shops.map((s) => s.properties.name));
    for (const line of result.report) {
      expect(line.counted).toBeLessThanOrEqual(line.orders);
      expect(line.revenue > 0).toBe(line.counted > 0);
    }
    expect(result.report.some((line) => line.counted > 0)).toBe(true);
    expect(lines[0]).toMatch(/^Sales report \(paid orders\), as .+:$/);
    expect(result.requests.second).toBe(result.requests.first);
    expect(result.requests.revalidated).toBe(result.requests.second);
    expect(lines.at(-1)).toContain(`${result.requests.revalidated} of them 304s served from the cache`);
  });
});

describe('keep-alive', () => {
  let shortLived: ExampleServer;
  beforeAll(async () => {
    shortLived = await startExampleServer({ tokenTtl: 1 });
  });
  afterAll(() => shortLived?.server.close());

  it('outlives its tokens through the JWT bearer grant and resumes from the saved token', async () => {
    const tokenFile = join(temp, 'token.json');
    const lines: string[] = [];
    const log = (line: string) => {
      lines.push(line);
      // Between two rounds, more than a token's life (1 s) passes on the server: every next round needs a new token.
      if (line.startsWith('Round ')) shortLived.advance(2000);
    };
    const result = await keepAlive({ ...shortLived.options(lines), log, tokenFile, rounds: 3, interval: 0 });
    expect(result).toEqual({ rounds: 3, refreshes: 2 });
    expect(lines[0]).toMatch(/^Obtained a first token, saved in /);
    expect(lines.filter((line) => line.startsWith('  new token through the JWT bearer grant'))).toHaveLength(2);
    expect(lines.at(-1)).toBe('Stopped after 3 rounds and 2 token refreshes');

    const saved = JSON.parse(await readFile(tokenFile, 'utf8'));
    expect(saved).toMatchObject({ tokenType: 'Bearer', accessToken: expect.any(String) });
    const resumed: string[] = [];
    const second = await keepAlive({ ...shortLived.options(resumed), tokenFile, rounds: 1 });
    expect(second).toEqual({ rounds: 1, refreshes: 1 });
    expect(resumed[0]).toMatch(/^Resuming with the token saved in /);
    // The token saved by the first run was exchanged, hence revoked: the file holds the newest one.
    expect(JSON.parse(await readFile(tokenFile, 'utf8')).accessToken).not.toBe(saved.accessToken);
  });

  it('stops cleanly when aborted', async () => {
    const stop = new AbortController();
    const lines: string[] = [];
    const running = keepAlive({
      ...example.options(lines),
      tokenFile: join(temp, 'aborted-token.json'),
      interval: 60_000,
      signal: stop.signal,
      log: (line) => {
        lines.push(line);
        if (line.startsWith('Round 1')) stop.abort();
      },
    });
    await expect(running).resolves.toEqual({ rounds: 1, refreshes: 0 });
    expect(lines.at(-1)).toBe('Stopped after 1 round and 0 token refreshes');
  });
});

/**
 * Runs the fleet on a token that has expired by the time the workers start (the server expires it as the fleet
 * announces itself, before the workers are spawned) and returns the output.
 */
async function onExpiredToken(redisUrl: string | undefined, prefix: string, redisClient?: RedisClientName) {
  const lines: string[] = [];
  let expired: Promise<unknown> | undefined;
  const reports = await fleet({
    ...example.options([]),
    log: (line) => {
      lines.push(line);
      if (expired) return;
      // The shared token, which `main` just obtained: the newest token row.
      const token = example.server.store.all('tokens').at(-1)!;
      expired = example.server.store.write((tx) => tx.update('tokens', token.id, { expires_at: Date.now() - 1 }));
    },
    workers: 3,
    rounds: 1,
    redisUrl,
    redisClient,
    prefix,
  });
  await expired;
  return { lines, reports };
}

describe.skipIf(skipWithout(REDIS_SERVER, 'The fleet example on Redis'))('fleet on Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis?.stop());

  it('runs worker processes on one shared token through Redis, every read answered', async () => {
    const lines: string[] = [];
    const reports = await fleet({ ...example.options(lines), workers: 2, rounds: 1, redisUrl: redis.url });
    expect(reports.map((report) => report.ok)).toEqual([20, 20]);
    expect(reports.reduce((n, report) => n + report.exchanges, 0)).toBe(0);
    expect(lines[0]).toBe(`2 workers on one token, sharing it through ${redis.url} (redis)`);
    expect(lines.at(-1)).toBe('0 token exchanges in all, 0 failed reads');
  }, 60_000);

  it.each(REDIS_CLIENTS)(
    'exchanges an expired shared token once for the whole fleet, every read answered (%s)',
    async (client) => {
      const { lines, reports } = await onExpiredToken(redis.url, `fleet-refresh-${client}-${Date.now()}`, client);
      expect(lines[0]).toBe(`3 workers on one token, sharing it through ${redis.url} (${client})`);
      expect(reports.map((report) => report.ok)).toEqual([20, 20, 20]);
      expect(reports.map((report) => report.exchanges).sort()).toEqual([0, 0, 1]);
      expect(lines.at(-1)).toBe('1 token exchanges in all, 0 failed reads');
    },
    60_000,
  );
});

describe('fleet without Redis', () => {
  it('with --no-redis, shows the fleet locking itself out even with REDIS_URL set: one exchange, the other workers refused', async () => {
    // The workers inherit this environment: they must not take Redis from it either. Nothing listens there (no
    // Redis is needed): a fleet that took it would say it shares through it, and fail to connect.
    const saved = process.env.REDIS_URL;
    process.env.REDIS_URL = 'redis://127.0.0.1:9';
    let run: Awaited<ReturnType<typeof onExpiredToken>>;
    try {
      expect(fromFleetArgs(['--no-redis']).redisUrl).toBeUndefined();
      run = await onExpiredToken(fromFleetArgs(['--no-redis']).redisUrl, 'unused');
    } finally {
      if (saved === undefined) delete process.env.REDIS_URL;
      else process.env.REDIS_URL = saved;
    }
    const { lines, reports } = run;
    expect(lines[0]).toBe('3 workers on one token, each on its own');
    expect(reports.map((report) => report.ok).sort()).toEqual([0, 0, 20]);
    // The server accepts one JWT bearer exchange per token: the two workers that lost the race get no token.
    expect(lines.at(-1)).toBe('1 token exchanges in all, 40 failed reads');
  }, 60_000);
});

describe('fleet arguments', () => {
  it('take the Redis client by name', () => {
    expect(fromFleetArgs(['--no-redis', '--redis-client', 'ioredis']).redisClient).toBe('ioredis');
    expect(() => fromFleetArgs(['--no-redis', '--redis-client', 'valkey'])).toThrow(
      /--redis-client: one of redis, redis4, redis6, ioredis, ioredis6, not "valkey"/,
    );
  });

  it('ask for REDIS_URL or --no-redis', () => {
    const saved = process.env.REDIS_URL;
    delete process.env.REDIS_URL;
    try {
      expect(() => fromFleetArgs([])).toThrow(/set REDIS_URL .*--no-redis/);
    } finally {
      if (saved !== undefined) process.env.REDIS_URL = saved;
    }
  });
});
