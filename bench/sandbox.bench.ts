/**
 * The sandbox's controls (issue 49), through the control API over HTTP as a test suite calls them:
 * - reset on the default seed (300 products), after a test's writes: target 50 ms;
 * - restore of a snapshot of 10 000 products: target 1 s, after a few writes and after a write that changed every
 *   product (the worst case: every row is written again), on the JSON store and on PostgreSQL.
 * Each median is printed beside a plain `GET {base_url}/` of the same server, measured in the same run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type StorefrontServer } from '../server/src/create-server.js';
import { connectSandbox, type SandboxClient } from '../server/src/sandbox/client.js';
import { freshSchema } from '../test/support/postgres-server.js';
import { median } from './stats.js';

const ROUNDS = 15;

async function timed(rounds: number, before: () => Promise<unknown>, run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await before();
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function baseline(server: StorefrontServer): Promise<number> {
  return timed(
    ROUNDS,
    async () => undefined,
    async () => (await fetch(`${server.baseUrl}/`)).arrayBuffer(),
  );
}

function line(what: string, ms: number, base: number, target: number): void {
  const verdict = ms <= target ? 'within' : 'OVER';
  console.log(
    `${what.padEnd(58)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / base).toFixed(1).padStart(7)}× a GET /v1/  (${verdict} the ${target} ms target)`,
  );
}

/** A few writes, as a test makes them: a product renamed, one added. */
function someWrites(server: StorefrontServer, round: number) {
  return server.store.write((tx) => {
    const first = server.store.all('products')[0]!;
    tx.update('products', first.id, { title: `Renamed ${round}` });
    const { id: _, ...fields } = first;
    tx.insert('products', { ...fields, slug: `added-${round}`, title: `Added ${round}` });
  });
}

/** Every product changed. */
function everyProduct(server: StorefrontServer, round: number) {
  return server.store.write((tx) => {
    for (const product of server.store.all('products'))
      tx.update('products', product.id, { price: product.price + round + 1 });
  });
}

async function measureStore(label: string, open: (products: number) => Promise<StorefrontServer>): Promise<void> {
  const small = await open(300);
  try {
    const control = connectSandbox(small.control!);
    const base = await baseline(small);
    let round = 0;
    line(
      `${label}: reset, 300 products, after a few writes`,
      await timed(
        ROUNDS,
        () => someWrites(small, round++),
        () => control.reset(),
      ),
      base,
      50,
    );
  } finally {
    await small.close();
  }
  const large = await open(10_000);
  try {
    const control: SandboxClient = connectSandbox(large.control!);
    const base = await baseline(large);
    await control.snapshots.take('bench');
    let round = 0;
    line(
      `${label}: restore, 10 000 products, after a few writes`,
      await timed(
        ROUNDS,
        () => someWrites(large, round++),
        () => control.snapshots.restore('bench'),
      ),
      base,
      1000,
    );
    line(
      `${label}: restore, 10 000 products, every product changed`,
      await timed(
        5,
        () => everyProduct(large, round++),
        () => control.snapshots.restore('bench'),
      ),
      base,
      1000,
    );
    line(
      `${label}: take a snapshot of 10 000 products`,
      await timed(
        5,
        async () => undefined,
        () => control.snapshots.take('bench'),
      ),
      base,
      1000,
    );
  } finally {
    await large.close();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'storefront-bench-sandbox-'));
try {
  let n = 0;
  await measureStore('JSON', (products) =>
    createServer({ port: 0, data: join(dir, `db${n++}.json`), products, control: true, explorer: false }),
  );
  const schemas: { drop(): Promise<void> }[] = [];
  try {
    await measureStore('PostgreSQL', async (products) => {
      const schema = await freshSchema();
      schemas.push(schema);
      return createServer({ port: 0, store: schema.url, products, control: true, explorer: false });
    });
  } finally {
    for (const schema of schemas) await schema.drop();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
