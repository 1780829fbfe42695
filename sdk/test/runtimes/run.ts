/**
 * The runner of sdk/test/runtimes/run.sh (which installs the runtimes and the packed SDK first): starts a reference
 * server of the repository on 127.0.0.1, port 0, and runs the scenario of `scenario.ts`, copied into the app
 * directory beside the installed SDK, on each runtime in turn, as an app of that runtime would:
 *
 * - Bun and Deno run the file as it is, the SDK loaded unbundled from node_modules (Deno with `--allow-net` for the
 *   server's address and nothing else);
 * - workerd runs it bundled by esbuild with the conditions wrangler gives (`workerd`, `worker`, `browser`), as a test
 *   handler (`workerd test`), its outbound network allowed to reach 127.0.0.1 (by default workerd refuses
 *   private and local addresses);
 * - Chromium runs it bundled for the browser in a page of another origin (the API's CORS at work).
 *
 *   npx tsx sdk/test/runtimes/run.ts --app DIR --runtimes "bun deno workerd chromium" --bin bun=PATH …
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { createServer } from '@storefront-platform/server';
import { build, type Platform } from 'esbuild';
import { chromiumPath, launchChromium } from '../../../test/browser/support/chromium.js';
import { SCENARIO_STEPS, type ScenarioOptions, type ScenarioReport } from './scenario.js';

const run = promisify(execFile);

const { values } = parseArgs({
  options: {
    app: { type: 'string' },
    runtimes: { type: 'string', default: 'bun deno workerd chromium' },
    bin: { type: 'string', multiple: true, default: [] },
  },
});
if (!values.app) throw new Error('Usage: run.ts --app DIR [--runtimes "bun deno workerd chromium"] [--bin NAME=PATH]…');
const app = values.app;
const bins = new Map(values.bin.map((entry) => entry.split('=', 2) as [string, string]));

/** The scenario's lines, or the runtime's failure. */
type Runner = (options: ScenarioOptions) => Promise<ScenarioReport>;

function bin(name: string): string {
  const path = bins.get(name);
  if (!path) throw new Error(`no --bin ${name}=PATH given`);
  return path;
}

/** An entry of the app directory, the scenario's caller; what it prints is the report, one line each. */
async function entry(name: string, source: string): Promise<string> {
  await writeFile(join(app, name), source);
  return name;
}

/** The scenario's lines as a runtime printed them (its stdout). */
async function lines(command: string, args: string[]): Promise<ScenarioReport> {
  const { stdout } = await run(command, args, { cwd: app, maxBuffer: 1 << 20 });
  return stdout.split('\n').filter(Boolean);
}

const CLI_ENTRY = `import { scenario } from './scenario.ts';
for (const line of await scenario(JSON.parse(process.argv[2]))) console.log(line);
`;

const runners: Record<string, Runner> = {
  async bun(options) {
    return lines(bin('bun'), ['run', await entry('cli.ts', CLI_ENTRY), JSON.stringify(options)]);
  },

  async deno(options) {
    // Network access to the server alone: the SDK reads no file, no environment variable.
    const net = `--allow-net=${new URL(options.origin).host}`;
    return lines(bin('deno'), ['run', net, await entry('cli.ts', CLI_ENTRY), JSON.stringify(options)]);
  },

  async workerd(options) {
    const source = `import { scenario } from './scenario.ts';
export default { async test(controller, env) { for (const line of await scenario(env.SCENARIO)) console.log(line); } };
`;
    await bundle(await entry('worker-entry.ts', source), 'worker.js', 'neutral', ['workerd', 'worker', 'browser']);
    // The network service of the worker's fetch: workerd's default allows public addresses only.
    const config = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = (
      modules = [(name = "worker.js", esModule = embed "worker.js")],
      compatibilityDate = "2025-09-01",
      bindings = [(name = "SCENARIO", json = ${JSON.stringify(JSON.stringify(options))})],
      globalOutbound = "internet",
    )),
    (name = "internet", network = (allow = ["127.0.0.1/32"])),
  ],
);
`;
    await writeFile(join(app, 'config.capnp'), config);
    return lines(bin('workerd'), ['test', 'config.capnp']);
  },

  async chromium(options) {
    const source = `import { scenario } from './scenario.ts';
globalThis.scenario = scenario;
`;
    await bundle(await entry('browser-entry.ts', source), 'browser.js', 'browser', []);
    const script = await readFile(join(app, 'browser.js'), 'utf8');
    // The page's origin is not the API's: the SDK's requests are cross-origin, as an app's are.
    const page = createHttpServer((request, response) => {
      if (request.url === '/browser.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else response.writeHead(200, { 'content-type': 'text/html' }).end('<script src="/browser.js"></script>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    if (!chromiumPath) throw new Error('no Chromium: apt-get install chromium, or set CHROMIUM_PATH');
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      // A bundle that throws as it loads defines no scenario: its error, not that, is the failure to report.
      const loadErrors: Error[] = [];
      tab.on('pageerror', (error) => loadErrors.push(error));
      await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
      if (loadErrors.length) throw new Error(`the bundle failed to load: ${loadErrors[0]!.stack ?? loadErrors[0]}`);
      return await tab.evaluate(
        (scenarioOptions) =>
          (globalThis as unknown as { scenario: (o: ScenarioOptions) => Promise<ScenarioReport> }).scenario(
            scenarioOptions,
          ),
        options,
      );
    } finally {
      await browser.close();
      page.close();
    }
  },
};

/** esbuild over the app's node_modules (the installed tarball), with the platform and conditions of the target. */
async function bundle(input: string, output: string, platform: Platform, conditions: string[]): Promise<void> {
  await build({
    absWorkingDir: app,
    entryPoints: [input],
    outfile: output,
    bundle: true,
    format: 'esm',
    platform,
    mainFields: ['browser', 'module', 'main'],
    conditions,
    target: 'es2022',
    logLevel: 'warning',
  });
}

const requested = values.runtimes.split(/\s+/).filter(Boolean);
const unknown = requested.filter((name) => !(name in runners));
if (unknown.length)
  throw new Error(`unknown runtimes: ${unknown.join(', ')} (known: ${Object.keys(runners).join(', ')})`);

const server = await createServer({ port: 0, products: 60, explorer: false });
const { credentials } = server;
if (!credentials) throw new Error('the seeded server has no demo app');

// Each runtime verifies a real delivery of the server: an endpoint here, and a write before each runtime's turn.
const received: ScenarioOptions['webhook'][] = [];
const receiver = createHttpServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    received.push({ secret: '', body: Buffer.concat(chunks).toString('utf8'), headers });
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const admin = await fetch(`${server.origin}/oauth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({
    grant_type: 'client_credentials',
    scope: 'admin',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  }),
}).then((answer) => answer.json() as Promise<{ access_token: string }>);
const apiHeaders = { authorization: `Bearer ${admin.access_token}`, 'content-type': 'application/json' };
const endpoint = await fetch(`${server.baseUrl}/webhook_endpoints`, {
  method: 'POST',
  headers: apiHeaders,
  body: JSON.stringify({
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`,
    events: ['theme.updated'],
  }),
}).then((answer) => answer.json() as Promise<{ secret: string }>);

/** A delivery the server makes now: the demo shop's theme renamed, delivered, received. */
async function delivery(name: string): Promise<ScenarioOptions['webhook']> {
  const before = received.length;
  const answer = await fetch(`${server.baseUrl}/themes/1`, {
    method: 'PUT',
    headers: apiHeaders,
    body: JSON.stringify({ title: `Checked on ${name}` }),
  });
  if (answer.status !== 200) throw new Error(`renaming the theme: ${answer.status}`);
  await server.webhooks.drain();
  const made = received[before];
  if (!made) throw new Error('the server made no delivery');
  return { ...made, secret: endpoint.secret };
}

let failed = 0;
try {
  for (const name of requested) {
    // Each runtime gets a fresh app's view: its first token, its own template update.
    const options: ScenarioOptions = {
      origin: server.origin,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      webhook: await delivery(name),
    };
    const started = performance.now();
    try {
      const report = await runners[name]!(options);
      // A runtime that stopped half way with a success status would print fewer lines.
      if (report.length !== SCENARIO_STEPS) {
        throw new Error(`${report.length} steps reported, not ${SCENARIO_STEPS}:\n${report.join('\n')}`);
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`runtimes: ${name} passed in ${seconds} s\n${report.map((line) => `  ${line}`).join('\n')}`);
    } catch (error) {
      failed++;
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      console.error(`runtimes: ${name} FAILED: ${(error as Error).message}\n${stdout ?? ''}${stderr ?? ''}`);
    }
  }
} finally {
  await server.close();
  receiver.close();
}
process.exitCode = failed ? 1 : 0;
