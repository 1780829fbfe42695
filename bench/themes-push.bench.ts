/**
 * `storefront-themes push` on a large theme: 300 templates and 100 assets, created through the API on a reference
 * server started here. Measures the push of the library the bin runs (no process start) in three cases: every
 * file changed (a full push), one template changed, nothing changed; requests are counted in the server's own
 * request log (writes: PUT, POST, DELETE of the API; reads: GETs; the token request), time is wall time over
 * loopback, median of a few rounds. The machine is often shared: each push's time is also given as a ratio to a
 * baseline measured in the same run, the same server taking 300 template updates straight from the SDK client,
 * four at a time, with no folder behind them (the floor of the server and the client for that many writes). The
 * floor of the full push itself is measured too: its 400 writes (300 template updates, 100 asset uploads) sent the
 * same way, which tells the push's own work from the cost of its requests.
 * The processor time of each push is given too (`cpu`: this process's, every thread's: the server's and the
 * client's together while the server runs here, the client's alone after): it moves far less than wall time on a busy machine, and wall time cannot
 * be shorter than the part of it spent on the one JavaScript thread.
 * It runs twice: against a server in this process (`createServer`, its data in memory), then against the server's
 * own bin in a process of its own on a JSON data file, as a theme developer's push meets `npx storefront-server`:
 * each write flushed to the disk before it is answered, the push's time then mostly the server's (see the floor).
 * Targets: a push with one changed template sends exactly one request (the guarded PUT; the theme is not read);
 * every file changed (400) within 1.0 s against the server in this process.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientCredentials, createClient, mapLimited } from '@storefront-platform/sdk';
import { createServer } from '@storefront-platform/server';
import { pullTheme, pushTheme } from '@storefront-platform/themes';
import { freePort } from '../test/support/free-port.js';

const TEMPLATES = 300;
const ASSETS = 100;
const ROUNDS = 5;

/** A reference server the pushes go to: its URLs, its demo app, and the request lines it logged so far. */
interface Served {
  origin: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  requests: string[];
  close(): Promise<void>;
}

async function inThisProcess(): Promise<Served> {
  const requests: string[] = [];
  const server = await createServer({ port: 0, products: 5, log: (line) => requests.push(line) });
  const { clientId, clientSecret } = server.credentials!;
  return {
    origin: server.origin,
    baseUrl: server.baseUrl,
    clientId,
    clientSecret,
    requests,
    close: () => server.close(),
  };
}

/** The server's built bin (`npm run build`) in a process of its own, on a JSON data file in `dir`. */
async function inItsOwnProcess(dir: string): Promise<Served> {
  const bin = fileURLToPath(new URL('../server/dist/cli.js', import.meta.url));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const [clientId, clientSecret] = ['themes-push-bench', 'themes-push-bench-secret-0123456789abcdef'];
  const args = ['--port', String(port), '--data', join(dir, 'db.json'), '--products', '5'];
  const child = spawn(
    process.execPath,
    [bin, ...args, '--demo-client-id', clientId, '--demo-client-secret', clientSecret],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const requests: string[] = [];
  let rest = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        if (line.includes('listening on')) resolve();
        else requests.push(line);
      }
    });
    child.once('exit', (code) => reject(new Error(`${bin} exited (${code}) before listening: built? (npm run build)`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    origin,
    baseUrl: `${origin}/v1`,
    clientId,
    clientSecret,
    requests,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The three pushes against `served`, printed; whether they met the targets (`timed`: the full push's time too). */
async function pushes(served: Served, dir: string, timed: boolean): Promise<boolean> {
  const { requests, clientId, clientSecret } = served;
  const client = createClient({
    baseUrl: served.baseUrl,
    auth: clientCredentials({ authUrl: served.origin, clientId, clientSecret, scope: 'admin' }),
  });
  const shop = await (await client.root()).embedded('shops')[0]!.follow('self');
  const theme = await shop.follow('svc:theme');
  const svg = (i: number, note = '') =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#${(i * 2654435).toString(16).slice(-6).padStart(6, '0')}"/><!-- ${'icon '.repeat(200)}${note} --></svg>\n`;
  const template = (i: number) =>
    `<section class="block-${i}">\n${'  <p>{{ product.title }} — a line of the theme.</p>\n'.repeat(30)}</section>\n`;
  // Every asset an SVG, so that a full push can change each one as text.
  for (const asset of theme.embedded('assets')) await asset.follow('svc:delete_theme_asset');
  const have = { templates: theme.embedded('templates').length, assets: 0 };
  const jobs: (() => Promise<unknown>)[] = [];
  for (let i = have.templates; i < TEMPLATES; i++) {
    jobs.push(() => theme.follow('svc:create_template', { file_name: `blocks/block-${i}.html`, body: template(i) }));
  }
  for (let i = have.assets; i < ASSETS; i++) {
    const data = Buffer.from(svg(i)).toString('base64');
    jobs.push(() => theme.follow('svc:create_theme_asset', { file_name: `icons/icon-${i}.svg`, data }));
  }
  for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((job) => job()));

  const pullStart = performance.now();
  const pulled = await pullTheme({ client, dir, shop: shop.properties.id });
  const pullMs = performance.now() - pullStart;
  const paths = pulled.workspace.manifest.files;
  const templates = Object.values(paths).filter((f) => f.kind === 'template').length;
  const assets = Object.values(paths).filter((f) => f.kind === 'asset').length;
  console.log(`theme: ${templates} templates, ${assets} assets; pulled in ${(pullMs / 1000).toFixed(2)} s`);
  if (templates !== TEMPLATES || assets !== ASSETS) throw new Error('the theme does not have the planned size');

  interface Measure {
    ms: number;
    cpu: number;
    total: number;
    writes: number;
    reads: number;
    tokens: number;
    sent: number;
  }
  const measure = async (change: (round: number) => Promise<void>): Promise<Measure> => {
    await change(-1);
    const from = requests.length;
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const result = await pushTheme({ client, dir });
    const ms = performance.now() - start;
    const cpuUsed = process.cpuUsage(cpuStart);
    const lines = requests.slice(from);
    const count = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
    const failed = result.files.filter((f) => f.action === 'failed' || f.action === 'conflict');
    if (failed.length) throw new Error(`push failed: ${JSON.stringify(failed.slice(0, 3))}`);
    return {
      ms,
      cpu: (cpuUsed.user + cpuUsed.system) / 1000,
      total: lines.length,
      writes: count(/^(PUT|POST|DELETE) \/v1\//),
      reads: count(/^GET /),
      tokens: count(/^POST \/oauth\/token /),
      sent: result.files.length,
    };
  };
  const median = (runs: Measure[]) => {
    const sorted = [...runs].sort((a, b) => a.ms - b.ms);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  const rounds = async (n: number, change: (round: number) => Promise<void>) => {
    const runs: Measure[] = [];
    for (let round = 0; round < n; round++) runs.push(await measure(() => change(round)));
    return median(runs);
  };

  const everyFile = async (round: number) => {
    for (const [path, file] of Object.entries(paths)) {
      const text = await readFile(join(dir, path), 'utf8');
      const edited =
        file.kind === 'template'
          ? `${text}<!-- full push ${round} -->\n`
          : text.replace(/ -->/, ` full push ${round} -->`);
      await writeFile(join(dir, path), edited);
    }
  };
  const full = await rounds(3, everyFile);
  const one = await rounds(ROUNDS, (round) =>
    writeFile(join(dir, 'blocks/block-150.html'), template(150) + `<!-- ${round} -->\n`),
  );
  const none = await rounds(ROUNDS, async () => {});
  // Last, warm as the pushes were: it changes the server's templates behind the folder's back.
  const baselineRound = async () => {
    const templates = (await theme.follow('self')).embedded('templates');
    const start = performance.now();
    await mapLimited(templates, 4, (t) => t.follow('svc:update_template', { body: `${t.properties.body} ` }));
    return performance.now() - start;
  };
  const baselines: number[] = [];
  for (let round = 0; round < 3; round++) baselines.push(await baselineRound());
  const baseline = baselines.sort((a, b) => a - b)[1]!;
  // The full push's own 400 writes straight from the SDK client, no folder: the floor of that push here.
  const floorRound = async (round: number) => {
    const now = await theme.follow('self');
    const writes: (() => Promise<unknown>)[] = [
      ...now.embedded('templates').map((t) => () => t.follow('svc:update_template', { body: `${t.properties.body} ` })),
      ...now.embedded('assets').map((a, i) => () => {
        const data = Buffer.from(svg(i, `floor ${round}`)).toString('base64');
        return now.follow('svc:create_theme_asset', { file_name: a.properties.file_name, data });
      }),
    ];
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    await mapLimited(writes, 4, (write) => write());
    const cpuUsed = process.cpuUsage(cpuStart);
    return { ms: performance.now() - start, cpu: (cpuUsed.user + cpuUsed.system) / 1000 };
  };
  const floors: { ms: number; cpu: number }[] = [];
  for (let round = 0; round < 3; round++) floors.push(await floorRound(round));
  const floor = floors.sort((a, b) => a.ms - b.ms)[1]!;

  const row = (name: string, m: Measure) =>
    `${name.padEnd(22)}${String(m.sent).padStart(6)}${String(m.total).padStart(10)}${String(m.writes).padStart(8)}${String(m.reads).padStart(7)}${String(m.tokens).padStart(7)}${`${m.ms.toFixed(0)} ms`.padStart(11)}${(m.ms / baseline).toFixed(2).padStart(12)}${`${m.cpu.toFixed(0)} ms`.padStart(10)}`;
  console.log(
    `\n${'push'.padEnd(22)}${'files'.padStart(6)}${'requests'.padStart(10)}${'writes'.padStart(8)}${'reads'.padStart(7)}${'token'.padStart(7)}${'time'.padStart(11)}${'× baseline'.padStart(12)}${'cpu'.padStart(10)}`,
  );
  console.log(row(`every file changed`, full));
  console.log(row('one template changed', one));
  console.log(row('nothing changed', none));
  console.log(`baseline: 300 template updates from the SDK client, 4 at a time: ${baseline.toFixed(0)} ms`);
  console.log(
    `floor: the full push's 400 writes from the SDK client, 4 at a time: ${floor.ms.toFixed(0)} ms, cpu ${floor.cpu.toFixed(0)} ms (${(floor.ms / baseline).toFixed(2)} × baseline; the full push ${(full.ms / floor.ms).toFixed(2)} × the floor)`,
  );
  const requestsMet = one.total === 1 && one.sent === 1 && none.writes === 0 && full.writes === TEMPLATES + ASSETS;
  const timeMet = !timed || full.ms <= 1000;
  console.log(
    `\none changed file → ${one.total} request (target 1); full push → ${full.writes} writes${timed ? `, ${full.ms.toFixed(0)} ms (target 1000)` : ''}: ${requestsMet && timeMet ? 'PASS' : 'FAIL'}`,
  );
  return requestsMet && timeMet;
}

let met = true;
for (const [label, start, timed] of [
  ['the server in this process (createServer)', () => inThisProcess(), true],
  ['the server in its own process (the built bin, a JSON data file)', (dir: string) => inItsOwnProcess(dir), false],
] as const) {
  console.log(`\n--- ${label}`);
  const dir = await mkdtemp(join(tmpdir(), 'themes-push-bench-'));
  const served = await start(join(dir, 'server'));
  try {
    if (!(await pushes(served, join(dir, 'theme'), timed))) met = false;
  } finally {
    await served.close();
    await rm(dir, { recursive: true, force: true });
  }
}
process.exitCode = met ? 0 : 1;
