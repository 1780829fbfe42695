/**
 * Runs one example against a Storefront API, by default the local reference server started by `npm start`:
 *
 *   npm run example -- <name> [example arguments]
 *   npm run example -- --help
 *
 * Where and who, from the environment:
 *   STOREFRONT_URL            origin of the reference server (default http://localhost:4000): the API root is
 *                             {origin}/v1 and the token endpoint {origin}/oauth/token
 *   STOREFRONT_CLIENT_ID      the app's client id and secret, as printed by `npm start`; when unset, they are read
 *   STOREFRONT_CLIENT_SECRET  from the demo app of the server's data file
 *   STOREFRONT_DATA           that data file (the server reads the same variable; default storefront-data/db.json)
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { StorefrontError } from 'storefront-sdk';
import type { ExampleOptions } from './shared/options.js';

/** What every example module exports. */
interface ExampleModule {
  description: string;
  main(options: ExampleOptions): Promise<unknown>;
  /** Turns the runner's arguments into the example's own options. */
  fromArgs(args: string[]): object;
}

const EXAMPLES: Record<string, () => Promise<ExampleModule>> = {
  'list-products': () => import('./list-products/index.js') as Promise<ExampleModule>,
  'theme-sync': () => import('./theme-sync/index.js') as Promise<ExampleModule>,
  'dev-theme': () => import('./dev-theme/index.js') as Promise<ExampleModule>,
  'keep-alive': () => import('./keep-alive/index.js') as Promise<ExampleModule>,
  'client-credentials': () => import('./client-credentials/index.js') as Promise<ExampleModule>,
};

/**
 * The demo app of a reference server's data file (see docs/server.md, "Data files"): the manifest names the file
 * of each collection; the first app is the demo app.
 */
async function demoApp(dataFile: string): Promise<{ clientId: string; clientSecret: string }> {
  let manifest: { collections?: { apps?: string } };
  try {
    manifest = JSON.parse(await readFile(dataFile, 'utf8'));
  } catch (error) {
    throw new Error(
      `STOREFRONT_CLIENT_ID and STOREFRONT_CLIENT_SECRET are not set, and the data file ${dataFile} cannot be read ` +
        `(${(error as Error).message}). Start the server first (npm start), or set them to the credentials it prints.`,
    );
  }
  const apps = JSON.parse(
    await readFile(join(dirname(dataFile), manifest.collections?.apps ?? 'db.apps.json'), 'utf8'),
  ) as { client_id: string; client_secret: string }[];
  const app = apps[0];
  if (!app)
    throw new Error(`The data file ${dataFile} holds no app: set STOREFRONT_CLIENT_ID and STOREFRONT_CLIENT_SECRET`);
  return { clientId: app.client_id, clientSecret: app.client_secret };
}

async function connection(env: NodeJS.ProcessEnv): Promise<ExampleOptions> {
  const origin = (env.STOREFRONT_URL ?? 'http://localhost:4000').replace(/\/+$/, '');
  const { STOREFRONT_CLIENT_ID: clientId, STOREFRONT_CLIENT_SECRET: clientSecret } = env;
  const app =
    clientId && clientSecret
      ? { clientId, clientSecret }
      : await demoApp(resolve(env.STOREFRONT_DATA ?? 'storefront-data/db.json'));
  return { baseUrl: `${origin}/v1`, authUrl: origin, ...app };
}

async function run(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const load = name === undefined ? undefined : EXAMPLES[name];
  if (!load) {
    const help = name === undefined || name === '--help' || name === '-h';
    const lines = ['Usage: npm run example -- <name> [arguments]', '', 'Examples:'];
    for (const [example, loadExample] of Object.entries(EXAMPLES)) {
      lines.push(`  ${example.padEnd(20)} ${(await loadExample()).description}`);
    }
    lines.push('', 'The browser example: npm run example:browser (see examples/browser/README.md).');
    (help ? console.log : console.error)(`${help ? '' : `Unknown example "${name}".\n\n`}${lines.join('\n')}`);
    return help ? 0 : 2;
  }
  const example = await load();
  let own: object;
  try {
    own = example.fromArgs(args);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  try {
    await example.main({ ...(await connection(process.env)), ...own, signal: stop.signal });
    return 0;
  } catch (error) {
    if (error instanceof StorefrontError && error.code === 'NETWORK_ERROR') {
      console.error(`${error.message}\nIs the server running? Start it with: npm start`);
    } else console.error(error instanceof StorefrontError ? `${error.name}: ${error.message}` : error);
    return 1;
  }
}

process.exitCode = await run(process.argv.slice(2));
