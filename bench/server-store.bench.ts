/**
 * The JSON-file store at 1 000 and 100 000 products, side by side: start-up time of the server (first
 * start, which seeds and writes the files, and a restart, which loads them) and the latency of writes
 * through the store (a template update, a token insert), each acknowledged only once on disk.
 * The 1 000-product run is the baseline; the target is a median write under 50 ms at 100 000.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../server/src/create-server.js';
import { hashSecret, randomSecret } from '../server/src/oauth/secrets.js';

const SIZES = [1_000, 100_000];
const WRITES = 200;

interface Figures {
  firstStart: number;
  restart: number;
  dataMiB: number;
  template: number[];
  token: number[];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

async function timeWrites(write: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 10; i++) await write(-1 - i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const start = performance.now();
    await write(i);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

async function measure(products: number): Promise<Figures> {
  const dir = await mkdtemp(join(tmpdir(), 'storefront-bench-'));
  try {
    const data = join(dir, 'db.json');
    let start = performance.now();
    const first = await createServer({ port: 0, data, products, demo: { password: 'bench' } });
    const firstStart = performance.now() - start;
    await first.close();

    start = performance.now();
    const server = await createServer({ port: 0, data });
    const restart = performance.now() - start;
    const { store } = server;
    const dataMiB = (await stat(join(dir, 'db.products.json'))).size / 2 ** 20;

    const template = store.all('templates')[0]!;
    const templateTimes = await timeWrites((i) =>
      store.write((tx) =>
        tx.update('templates', template.id, {
          body: `${template.body}<!-- edit ${i} -->`,
          updated_on: new Date().toISOString(),
        }),
      ),
    );
    const app = store.all('apps')[0]!;
    const tokenTimes = await timeWrites(() => {
      const now = Date.now();
      return store.write((tx) =>
        tx.insert('tokens', {
          token_hash: hashSecret(randomSecret()),
          app_id: app.id,
          user_id: app.owner_id,
          scopes: ['admin'],
          issued_at: now,
          expires_at: now + 3_600_000,
        }),
      );
    });
    await server.close();
    return { firstStart, restart, dataMiB, template: templateTimes, token: tokenTimes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const results = new Map<number, Figures>();
for (const size of SIZES) results.set(size, await measure(size));

const ms = (n: number) => `${n.toFixed(1)} ms`;
const rows: [string, (f: Figures) => number, (n: number) => string][] = [
  ['first start (seed + write files)', (f) => f.firstStart, ms],
  ['restart (load files)', (f) => f.restart, ms],
  ['products file size', (f) => f.dataMiB, (n) => `${n.toFixed(1)} MiB`],
  ['template write, median', (f) => percentile(f.template, 50), ms],
  ['template write, p95', (f) => percentile(f.template, 95), ms],
  ['token write, median', (f) => percentile(f.token, 50), ms],
  ['token write, p95', (f) => percentile(f.token, 95), ms],
];
const [small, large] = SIZES.map((size) => results.get(size)!);
console.log(`JSON-file store, ${WRITES} writes of each kind (after 10 warm-up writes)\n`);
console.log(
  `${''.padEnd(34)}${`${SIZES[0]} products`.padStart(16)}${`${SIZES[1]} products`.padStart(18)}${'ratio'.padStart(9)}`,
);
for (const [label, pick, format] of rows) {
  const a = pick(small!);
  const b = pick(large!);
  console.log(
    `${label.padEnd(34)}${format(a).padStart(16)}${format(b).padStart(18)}${`${(b / a).toFixed(2)}×`.padStart(9)}`,
  );
}
const worst = Math.max(percentile(large!.template, 50), percentile(large!.token, 50));
console.log(`\nmedian write at ${SIZES[1]} products: ${ms(worst)} (target < 50 ms): ${worst < 50 ? 'met' : 'NOT met'}`);
