/**
 * What the MSW handlers cost a test suite, against msw's own floor, in one run:
 * - start, the first time in a process (each sample a fresh process, as each test file of a suite is in its
 *   worker): msw's `setupServer` with one hand-written handler and one request (the floor), against
 *   `createHandlers()` + `setupServer` + a token + the first answered API request (the root, where every
 *   SDK client starts);
 * - the same the second time in a process (a suite's next test file in the same worker), against 5 ms; msw's own
 *   second start (a new hand-written handler through `resetHandlers`) is printed with the floor: about 3/4 of it;
 * - `reset()` after 0 and after 10 writes;
 * - per request: GET of the demo theme (19 KB) through the handlers against a hand-written handler that answers
 *   the same bytes;
 * - the reference server's start (`npm start`'s command) to its first answered request;
 * - a shop's own data set (`createHandlers({ data })`, as `readDataset` gives it): 10 000 products, the mock made,
 *   a token and a page of products, then the same mock again over the same object, and the data set's row
 *   checks at 10 000 and 40 000 products, in CPU time (4× the rows: about 4× the time, not 16×).
 * Run: `npx tsx bench/msw.bench.ts` (part of `npm run bench`); `--data` runs only the last case.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './stats.js';

const SELF = fileURLToPath(import.meta.url);
const CLI = fileURLToPath(new URL('../server/src/cli.ts', import.meta.url));
const THEME_PATH = '/v1/shops/1/theme.json';
/** Fresh processes per start figure: one second start each, whose spread on a 2-core machine is ±40 %. */
const SAMPLES = 15;

const ms = (value: number) => `${value.toFixed(2)} ms`;

/** One start in this process: `floor` or `mock`; prints the milliseconds from after the imports to the answer. */
async function child(mode: string): Promise<void> {
  const { http, HttpResponse } = await import('msw');
  const { setupServer } = await import('msw/node');
  const { createHandlers } = await import('@storefront-platform/server/msw');
  // The first request of any SDK client is the API root.
  const url = 'http://localhost:4000/v1/';
  const body = JSON.stringify({ _class: ['root'], _links: { self: { href: url } } });
  const started = performance.now();
  if (mode === 'floor') {
    const handWritten = () =>
      http.get(url, () => HttpResponse.text(body, { headers: { 'content-type': 'application/hal+json' } }));
    const server = setupServer(handWritten());
    server.listen();
    await (await fetch(url)).text();
    const firstTime = performance.now() - started;
    const again = performance.now();
    server.resetHandlers(handWritten());
    await (await fetch(url)).text();
    console.log(firstTime, performance.now() - again);
    server.close();
    return;
  }
  const answer = async (mock: ReturnType<typeof createHandlers>) => {
    const { accessToken } = await mock.issueToken({ scope: 'admin' });
    const response = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
    await response.text();
    if (response.status !== 200) throw new Error(`GET root answered ${response.status}`);
  };
  const first = createHandlers();
  const server = setupServer(...first.handlers);
  server.listen();
  await answer(first);
  const firstTime = performance.now() - started;
  // The same again, as the next test file of the worker: a new mock on the running msw server.
  const again = performance.now();
  const second = createHandlers();
  server.resetHandlers(...second.handlers);
  await answer(second);
  console.log(firstTime, performance.now() - again);
  server.close();
}

/** Runs this file as a fresh process in `mode` and returns the numbers it prints. */
function sample(mode: string): number[] {
  const run = spawnSync(process.execPath, ['--import', 'tsx', SELF, '--child', mode], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`child ${mode} failed:\n${run.stderr}`);
  return run.stdout.trim().split(/\s+/).map(Number);
}

async function inProcess(): Promise<void> {
  const { http, HttpResponse } = await import('msw');
  const { setupServer } = await import('msw/node');
  const { createHandlers } = await import('@storefront-platform/server/msw');

  const mock = createHandlers();
  const { accessToken } = await mock.issueToken({ scope: 'admin' });
  const headers = { authorization: `Bearer ${accessToken}` };
  const url = `${mock.origin}${THEME_PATH}`;
  const server = setupServer(...mock.handlers);
  server.listen();
  const body = await (await fetch(url, { headers })).text();
  const contentType = 'application/hal+json';

  // reset() after 0 and after 10 writes (template updates through the API, as a test would make them).
  const template = JSON.parse(body)._embedded?.templates?.[0]?._links?.self?.href as string | undefined;
  if (!template) throw new Error('the demo theme embeds no template');
  const resets = { 0: [] as number[], 10: [] as number[] };
  for (let round = 0; round < 40; round++) {
    for (const writes of [0, 10] as const) {
      const { accessToken: token } = await mock.issueToken({ scope: 'admin' });
      for (let i = 0; i < writes; i++) {
        const put = await fetch(template, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ body: `<p>write ${i}</p>` }),
        });
        if (!put.ok) throw new Error(`PUT template answered ${put.status}: ${await put.text()}`);
      }
      const started = performance.now();
      mock.reset();
      resets[writes].push(performance.now() - started);
    }
  }
  const { accessToken: fresh } = await mock.issueToken({ scope: 'admin' });
  headers.authorization = `Bearer ${fresh}`;

  // Per request, alternating rounds so that both see the same machine state.
  const handWritten = http.get(url, () => HttpResponse.text(body, { headers: { 'content-type': contentType } }));
  const perRequest = { mock: [] as number[], hand: [] as number[] };
  const timeRequests = async () => {
    const started = performance.now();
    for (let i = 0; i < 200; i++) await (await fetch(url, { headers })).text();
    return (performance.now() - started) / 200;
  };
  for (let round = 0; round < 12; round++) {
    server.resetHandlers(...mock.handlers);
    perRequest.mock.push(await timeRequests());
    server.resetHandlers(handWritten);
    perRequest.hand.push(await timeRequests());
  }
  server.close();

  const reset0 = median(resets[0]);
  const reset10 = median(resets[10]);
  const request = median(perRequest.mock.slice(2)) / median(perRequest.hand.slice(2));
  console.log(`reset() after 0 writes             ${ms(reset0)}`);
  console.log(`reset() after 10 writes            ${ms(reset10)}   (target ≤ 0.3 ms)`);
  console.log(
    `GET theme per request              ${ms(median(perRequest.mock.slice(2)))} vs hand-written ` +
      `${ms(median(perRequest.hand.slice(2)))}: ${request.toFixed(2)}× (target ≤ 1.1×)`,
  );
  results.push(reset10 <= 0.3, request <= 1.1);
}

/** Milliseconds from `createHandlers({ data })` to its answer to a page of products, in this process. */
async function dataStart(data: object): Promise<number> {
  const { createHandlers } = await import('@storefront-platform/server/msw');
  const { setupServer } = await import('msw/node');
  const started = performance.now();
  const mock = createHandlers({ data });
  const server = setupServer(...mock.handlers);
  server.listen();
  try {
    const { accessToken } = await mock.issueToken({ scope: 'admin' });
    const response = await fetch(`${mock.baseUrl}/products.json?per_page=50`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    await response.text();
    if (response.status !== 200) throw new Error(`GET products answered ${response.status}`);
    return performance.now() - started;
  } finally {
    server.close();
  }
}

/** A seeded data set of `products` products as a file gives it: plain JSON, nothing frozen or shared. */
async function plainDataset(products: number): Promise<object> {
  const { seed } = await import('@storefront-platform/server');
  return JSON.parse(JSON.stringify(seed({ products, orders: 200 }).dataset)) as object;
}

/** `createHandlers({ data })` over 10 000 products, and how its row checks grow with the rows. */
async function ownData(): Promise<void> {
  const { createHandlers } = await import('@storefront-platform/server/msw');
  const data = await plainDataset(10_000);
  const first = await dataStart(data);
  const again: number[] = [];
  for (let i = 0; i < 5; i++) again.push(await dataStart(data));
  console.log(
    `createHandlers({ data }) 10 000 products + token + GET 50 products: ${ms(first)} (first), ${ms(median(again))} (median of 5 more)`,
  );
  // The checks of a data set's rows (row shapes, unique ids) and its copy are most of making a mock: timed alone,
  // by size, in CPU time of the process (on a loaded machine a longer run is preempted more often, which skews a
  // ratio of wall times), the median of 9.
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const makeOnly = async (products: number) => {
    const rows = await plainDataset(products);
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const started = cpuMs();
      createHandlers({ data: rows });
      times.push(cpuMs() - started);
    }
    return median(times);
  };
  const small = await makeOnly(10_000);
  const large = await makeOnly(40_000);
  console.log(
    `createHandlers({ data }) alone, CPU: 10 000 products ${ms(small)}, 40 000 ${ms(large)}: ` +
      `${(large / small).toFixed(1)}× for 4× the rows (linear: about 4×, quadratic 16×; target ≤ 8×)`,
  );
  results.push(first <= 1_000, large / small <= 8);
}

/** `npm start`'s command to its first answered request, in a fresh data directory each time. */
async function serverStart(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'storefront-bench-start-'));
  const started = performance.now();
  const server = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--data', join(dir, 'db.json')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    const origin = await new Promise<string>((resolve, reject) => {
      server.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      server.once('exit', () => reject(new Error(`the server exited:\n${out}`)));
    });
    await (await fetch(`${origin}/v1/`)).text();
    return performance.now() - started;
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

const results: boolean[] = [];
const childAt = process.argv.indexOf('--child');
if (childAt > 0) {
  await child(process.argv[childAt + 1]!);
} else if (process.argv.includes('--data')) {
  await ownData();
  process.exitCode = results.every(Boolean) ? 0 : 1;
} else {
  const floor: number[] = [];
  const floorAgain: number[] = [];
  const first: number[] = [];
  const second: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const [f, g] = sample('floor') as [number, number];
    floor.push(f);
    floorAgain.push(g);
    const [a, b] = sample('mock') as [number, number];
    first.push(a);
    second.push(b);
  }
  const floorMs = median(floor);
  const firstMs = median(first);
  const secondMs = median(second);
  console.log(`medians of ${SAMPLES} fresh processes each (imports excluded)`);
  console.log(`msw floor: setupServer + 1 request ${ms(floorMs)}; 2nd time in the process ${ms(median(floorAgain))}`);
  console.log(
    `createHandlers() + token + GET root ${ms(firstMs)}: ${(firstMs / floorMs).toFixed(2)}× the floor (target ≤ 2×)`,
  );
  console.log(
    `the same, 2nd time in the process  ${ms(secondMs)}   (target ≤ 5 ms; ` +
      `${(secondMs / floorMs).toFixed(2)}× the floor, where the issue's was 5 of 20 ms)`,
  );
  results.push(firstMs <= 2 * floorMs, secondMs <= 5);
  await inProcess();
  const starts: number[] = [];
  for (let i = 0; i < 3; i++) starts.push(await serverStart());
  console.log(`reference server: start to 1st answer ${ms(median(starts))} (median of 3, tsx from the sources)`);
  await ownData();
  const ok = results.every(Boolean);
  console.log(ok ? 'PASS' : 'FAIL: a target above is missed');
  process.exitCode = ok ? 0 : 1;
}
