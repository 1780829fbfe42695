/**
 * Runs one example against a Storefront API, by default the local reference server started by `npm start`:
 *
 *   npm run example -- <name> [example arguments]
 *   npm run example -- --help
 *
 * Where and who, from the environment:
 *   STOREFRONT_URL            origin of the reference server (default http://127.0.0.1:4000): the API root is
 *                             {origin}/v1 and the token endpoint {origin}/oauth/token
 *   STOREFRONT_CLIENT_ID      the app's client id and secret, as printed by `npm start`; when unset, they are read
 *   STOREFRONT_CLIENT_SECRET  from the demo app of the server's data file
 *   STOREFRONT_DATA           that data file (the server reads the same variable; default storefront-data/db.json)
 */
import { StorefrontError } from '@storefront-platform/sdk';
import { connectionFromEnv, unreachable } from './shared/connection.js';
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
  fleet: () => import('./fleet/index.js') as Promise<ExampleModule>,
  'webhooks-receiver': () => import('./webhooks-receiver/index.js') as Promise<ExampleModule>,
};

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
  let origin: string | undefined;
  try {
    const connection = await connectionFromEnv(process.env);
    origin = connection.authUrl;
    await example.main({ ...connection, ...own, signal: stop.signal });
    return 0;
  } catch (error) {
    if (error instanceof StorefrontError && error.code === 'NETWORK_ERROR' && origin !== undefined) {
      console.error(`${error.message}\n${unreachable(origin)}`);
    } else if (error instanceof Error) {
      // The message says what went wrong (SDK errors carry the status and the server's words, secrets redacted).
      console.error(`${error.name}: ${error.message}`);
      if (error.cause instanceof Error) console.error(`  caused by ${error.cause.name}: ${error.cause.message}`);
    } else console.error(error);
    return 1;
  }
}

process.exitCode = await run(process.argv.slice(2));
