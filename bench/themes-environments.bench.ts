/**
 * Many shops from one folder: `storefront-themes push --env 'shop-*'` (the built bin) to SHOPS shops of one
 * reference server started here, each an environment of the folder's storefront-themes.toml, the folder FILES
 * templates. Each shop starts with a production theme holding only layout.html, so every push is an
 * environment's first (`--force`: FILES writes per shop). Wall time of the one command, the JSON objects it printed
 * (one per shop) and the files they report written.
 * The server's processor time over the command (`server cpu`: this process's, every thread's) and its share of
 * the wall time tell whose pace the run goes at: the server, or the CLI's one process.
 * Target (issue 52): 200 shops × 300 files in at most 60 s. `THEMES_SHOPS`, `THEMES_FILES`, `THEMES_CONCURRENCY`
 * (environments at once, default 8) change the run: `THEMES_SHOPS=20 npm run bench -- themes-environments`.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createServer, seed } from '@storefront-platform/server';

const run = promisify(execFile);
const SHOPS = Number(process.env.THEMES_SHOPS ?? 200);
const FILES = Number(process.env.THEMES_FILES ?? 300);
const CONCURRENCY = process.env.THEMES_CONCURRENCY ?? '8';
const CLI = fileURLToPath(new URL('../themes/dist/cli.js', import.meta.url));

const demo = { clientId: 'bench-app', clientSecret: 'bench secret', password: 'bench password' };
const { dataset } = seed({ ...demo, products: 5 });
const north = dataset.shops.find((s) => s.subdomain === 'northwind')!;
const northTheme = dataset.themes.find((t) => t.shop_id === north.id && t.production)!;
const layout = dataset.templates.find((t) => t.theme_id === northTheme.id && t.file_name === 'layout.html')!;
const now = new Date().toISOString();
for (let i = 0; i < SHOPS; i++) {
  const [shop, theme] = [`${900_000 + i}`, `${910_000 + i}`];
  dataset.shops.push({
    ...north,
    id: shop,
    subdomain: `shop-${i}`,
    name: `Shop ${i}`,
    created_on: now,
    updated_on: now,
  });
  dataset.themes.push({
    ...northTheme,
    id: theme,
    shop_id: shop,
    title: `Theme ${i}`,
    preview_key: `bench-preview-key-${i}`,
  });
  dataset.templates.push({ ...layout, id: `${920_000 + i}`, theme_id: theme, created_on: now, updated_on: now });
}

const server = await createServer({ port: 0, data: dataset, demo });
const config = await mkdtemp(join(tmpdir(), 'themes-environments-config-'));
const dir = await mkdtemp(join(tmpdir(), 'themes-environments-bench-'));
try {
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: config,
    STOREFRONT_URL: server.origin,
    STOREFRONT_CLIENT_ID: demo.clientId,
    STOREFRONT_CLIENT_SECRET: demo.clientSecret,
    NO_COLOR: '1',
  };
  await run(process.execPath, [CLI, 'login', '--client-credentials'], { env });
  await writeFile(
    join(dir, 'layout.html'),
    '<!doctype html><title>Agency</title><body>{{ content_for_layout }}</body>\n',
  );
  await mkdir(join(dir, 'pages'));
  for (let i = 1; i < FILES; i++) await writeFile(join(dir, 'pages', `p${i}.html`), `<p>page ${i}</p>\n`);
  const tables = Array.from(
    { length: SHOPS },
    (_, i) => `[environments.shop-${i}]\nshop = "shop-${i}"\ntheme = "production"\n`,
  );
  await writeFile(join(dir, 'storefront-themes.toml'), tables.join('\n'));

  const args = ['push', dir, '--env', 'shop-*', '--yes', '--force', '--json', '--concurrency', CONCURRENCY];
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const result = await run(process.execPath, [CLI, ...args], { env, maxBuffer: 1 << 28 }).catch(
    (error: { stdout: string; code: number }) => error,
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuUsed = process.cpuUsage(cpuStart);
  const serverSeconds = (cpuUsed.user + cpuUsed.system) / 1e6;
  type Line = { exitCode: number; files?: { action: string }[] };
  const lines: Line[] = String(result.stdout)
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const written = lines.reduce((n, line) => n + (line.files?.filter((f) => f.action !== 'unchanged').length ?? 0), 0);
  console.log(`shops  files/shop  concurrency  objects  ok   written   exit  server cpu     time`);
  console.log(
    `${String(SHOPS).padEnd(7)}${String(FILES).padEnd(12)}${CONCURRENCY.padEnd(13)}${String(lines.length).padEnd(9)}` +
      `${String(lines.filter((l) => l.exitCode === 0).length).padEnd(5)}${String(written).padEnd(10)}` +
      `${String('code' in result ? result.code : 0).padEnd(6)}` +
      `${`${serverSeconds.toFixed(1)} s ${((serverSeconds / seconds) * 100).toFixed(0)} %`.padEnd(14)}` +
      `${seconds.toFixed(1)} s (target ≤ 60 s for 200 × 300)`,
  );
} finally {
  await server.close();
  await rm(config, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
}
