/**
 * `storefront-server import --from URL --to DIR|POSTGRES_URL`: a copy of the shops another API of this kind serves,
 * as a data set of the reference server (`import/import-shop.ts`). Exit codes: 0 once written, 1 when the import
 * failed (said in one line; the destination is left as it was and a rerun continues), 2 for bad flags.
 */
import { DATA_SET_OPTIONS, readCommandArgs } from './command-args.js';
import { importShop } from './import/import-shop.js';
import { sandboxOrigin } from './import/origins.js';
import { progressReporter, rowCount } from './import/progress.js';
import { retryWaitLine, tryAgainHint } from './import/retry-wait.js';
import { ImportError } from './import/walk.js';
import { REMOTE_OPTIONS, REMOTE_USAGE, RemoteApiError, remoteFromArgs } from './remote/remote-api.js';
import { describeRemoteFailure } from './remote/remote-failure.js';
import { StoreError } from './store/errors.js';
import { withoutPassword } from './store/postgres/postgres-url.js';

/** The usage; exported for its test. Descriptions start in column 21, as in REMOTE_USAGE (shared with drift). */
export const USAGE = `Usage: storefront-server import --from URL --to DIR|POSTGRES_URL [options]

Copies the shops an app's user administers on another API of this kind (the real
one, another reference server) into a data set of this server: their products,
orders, themes, templates and assets. Users, apps, tokens, webhooks and events are
never copied: a demo user (owner of the shops) and a demo app are made, their
credentials printed. The same source gives the same files, so the data set can
live in git. An import cut short continues when run again.

  --from URL         the API's root, e.g. https://api.example.com/v1
  --to DIR|URL       a JSON data directory or its db.json (as --data reads
                     them) or a PostgreSQL URL (?schema=NAME); must hold no data
${REMOTE_USAGE}
  --shops ID,...     only these shops
  --since DATE       update the data set --to holds: only what changed after
                     DATE (ISO 8601) is fetched again
  --products N       a sample of N products per shop (the same every time);
                     0 or more
  --concurrency N    requests at once, 1 to 64 (default 4)
  --replace          replace the data the destination holds
  --public-url URL   the sandbox's origin, which replaces the source's in the
                     data (default http://localhost:4000)
  --demo-password P  the demo user's password (or STOREFRONT_DEMO_PASSWORD;
                     default msw-demo-password)
  --demo-client-secret S
                     the demo app's secret (or STOREFRONT_DEMO_CLIENT_SECRET;
                     default msw-demo-client-secret)
  --help             show this help
`;

/** A bad flag: said with the usage, exit code 2. */
function usage(message: string): number {
  console.error(`storefront-server import: ${message}\nRun storefront-server import --help for the options.`);
  return 2;
}

/** A flag's whole number from `min` to `max`, as one line saying which numbers it takes otherwise. */
function wholeNumber(name: string, value: string | undefined, min: number, max = Infinity): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Infinity ? `≥ ${min}` : `from ${min} to ${max}`;
    throw new RangeError(`--${name} takes a whole number ${range}, got "${value}"`);
  }
  return n;
}

export async function runImport(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = readCommandArgs('import', USAGE, argv, {
    from: { type: 'string' },
    to: { type: 'string' },
    shops: { type: 'string' },
    since: { type: 'string' },
    products: { type: 'string' },
    concurrency: { type: 'string' },
    replace: { type: 'boolean' },
    ...REMOTE_OPTIONS,
    ...DATA_SET_OPTIONS,
  });
  if (typeof args === 'number') return args;
  const { values } = args;
  if (!values.from || !values.to) return usage('--from and --to are both needed');
  let options: Parameters<typeof importShop>[0];
  try {
    const since = values.since;
    if (since !== undefined && !Number.isFinite(Date.parse(since))) {
      throw new RangeError(`--since must be a date (ISO 8601, e.g. 2026-11-01T00:00:00Z), got "${since}"`);
    }
    const shops = values.shops?.split(',').map((id) => id.trim());
    if (shops && (shops.length === 0 || shops.some((id) => !id))) {
      throw new RangeError(`--shops takes shop ids separated by commas, got "${values.shops}"`);
    }
    const password = values['demo-password'] ?? env.STOREFRONT_DEMO_PASSWORD;
    const clientSecret = values['demo-client-secret'] ?? env.STOREFRONT_DEMO_CLIENT_SECRET;
    options = {
      from: remoteFromArgs(values.from, values, env),
      to: values.to,
      shops,
      since,
      products: wholeNumber('products', values.products, 0),
      concurrency: wholeNumber('concurrency', values.concurrency, 1, 64),
      replace: values.replace === true,
      publicUrl: values['public-url'],
      demo: { ...(password && { password }), ...(clientSecret && { clientSecret }) },
    };
    if (!URL.canParse(values.from) || !/^https?:$/.test(new URL(values.from).protocol)) {
      throw new RangeError(`--from must be the http(s) URL of an API's root, got "${values.from}"`);
    }
    // It is printed and kept in the staging directory: a user name or password in it would be written down.
    if (new URL(values.from).username || new URL(values.from).password) {
      throw new RangeError('--from must hold no user name or password: give the app with --client-id and its secret');
    }
    sandboxOrigin(values['public-url'], '--public-url');
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError || error instanceof RemoteApiError) {
      return usage(error.message);
    }
    throw error;
  }
  const progress = progressReporter(process.stderr);
  try {
    const report = await importShop({
      ...options,
      onProgress: progress.onProgress,
      onRetry: (event) => {
        const line = retryWaitLine(event);
        if (line) progress.note(line);
      },
    });
    progress.end();
    const counts = Object.entries(report.rows)
      .filter(([, count]) => count > 0)
      .map(([name, count]) => rowCount(count, name))
      .join(', ');
    const { credentials } = report;
    console.log(
      [
        `Imported ${options.from.url} into ${withoutPassword(report.location)}: ${counts}.`,
        `  ${report.fetched} rows fetched, ${report.reused} kept from an earlier run or the data set updated.`,
        `Sign in to the sandbox with the demo app and user:`,
        `  Client ID:     ${credentials.clientId}`,
        `  Client secret: ${credentials.clientSecret}`,
        `  Login:         ${credentials.login}`,
        `  Password:      ${credentials.password}`,
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    progress.end();
    const known = error instanceof ImportError || error instanceof StoreError || error instanceof RangeError;
    const message = known ? (error as Error).message : describeRemoteFailure(error, options.from);
    console.error(`storefront-server import: ${message}${tryAgainHint(error)}`);
    return 1;
  }
}
