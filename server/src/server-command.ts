/**
 * `storefront-server` (run by the bin, `cli.ts`): the reference server on a JSON file with demo data. Every flag is also read from
 * the environment as `STOREFRONT_<NAME>` (`--token-ttl` → `STOREFRONT_TOKEN_TTL`); a flag wins over its
 * variable. Exit codes: 0 after a clean stop (SIGINT/SIGTERM), 1 when the server cannot start (a port in use,
 * unreadable data, data another server has open, a data directory it cannot write), 2 for bad flags.
 */
import cluster from 'node:cluster';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { runPrimary } from './cluster/primary.js';
import { isFirstProcess, reportListening } from './cluster/worker.js';
import { DATA_SET_OPTIONS } from './command-args.js';
import { addressesOf } from './core/addresses.js';
import { createServer, type StorefrontServer } from './create-server.js';
import { dataFilePath } from './data-path.js';
import { checkTrustedProxies } from './express/forwarded-for.js';
import { diskFailureOf } from './http/disk-failure.js';
import { parseRateLimit, type RateLimitPolicy } from './http/rate-limit.js';
import { DEFAULT_TOKEN_TTL } from './oauth/token-ttl.js';
import { controlTokenProblem, newControlToken } from './sandbox/control-token.js';
import { DEFAULT_PRODUCTS } from './seed/default-products.js';
import { ignoreTerminalInterrupt, onStopSignal } from './stop-signals.js';
import { StoreLockedError } from './store/json/store-locked-error.js';
import { isPostgresUrl, withoutPassword } from './store/postgres/postgres-url.js';

const USAGE = `Usage: storefront-server [options]

Starts the Storefront Platform API reference server with demo data.
storefront-server migrate --from DIR|URL --to DIR|URL copies data between a
JSON data directory and a PostgreSQL database (storefront-server migrate --help).
storefront-server import --from URL --to DIR|URL copies the shops of another
API of this kind (yours) into a data set of this server: products, orders,
themes, assets; never users or tokens (storefront-server import --help).
storefront-server drift --against URL reports where another API of this kind
(the real one) disagrees with the contract (storefront-server drift --help).
storefront-server listen --forward-to URL forwards a server's events to your
app, signed, with no tunnel (storefront-server listen --help).
storefront-server trigger TYPE --shop SHOP [--set FIELD=VALUE] creates or
changes a real product or order with its event (storefront-server trigger --help).
storefront-server apps add --name NAME --redirect-uri URI registers an app of
your own (client id, secret) in a server started with --control; apps list,
apps remove ID. storefront-server users add --login L [--password P] [--shop S]
adds a user; users list, users remove ID (storefront-server apps --help).

Options (each also an environment variable STOREFRONT_<NAME>, e.g. STOREFRONT_TOKEN_TTL=60):
  --port N                  port to listen on; 0 picks a free one (default 4000)
  --host HOST               interface to listen on (default 127.0.0.1)
  --data PATH               JSON data file, created and seeded when missing; a
                            directory holds it as db.json
                            (default ./storefront-data/db.json); not with --store
  --store URL               a PostgreSQL database instead of the JSON file:
                            postgres://user:password@host:5432/db (add
                            ?schema=NAME for a schema other than storefront);
                            also STOREFRONT_DATABASE_URL
  --workers N               processes serving one port (node:cluster); more
                            than 1 needs --store (default 1)
  --trust-proxy ADDRESSES   reverse proxies (comma-separated IPs, or loopback)
                            whose X-Forwarded-For names the client, so that
                            failed logins are counted per client
  --reset                   re-seed the data file even if it exists
  --products N              products to seed (default ${DEFAULT_PRODUCTS})
  --public-url URL          origin clients reach the server at, used in links
  --token-ttl SECONDS       lifetime of access tokens (default 3600)
  --demo-client-id ID       fix the demo app's client id
  --demo-client-secret S    fix the demo app's client secret
  --demo-login LOGIN        fix the demo user's login
  --demo-password PASSWORD  fix the demo user's password
  --redirect-uri URI        accept URI as a redirect URI of the demo app, e.g. a
                            dev server's http://192.168.1.20:5173/callback
                            (repeatable; STOREFRONT_REDIRECT_URIS takes them
                            comma-separated). Any port of
                            http://localhost/callback needs none
  --webhooks-allow HOSTS    hosts (comma-separated names or addresses) a server
                            listening beyond loopback may deliver webhooks to
                            although they are loopback, private or link-local
  --control                 serve the control API at /_sandbox (reset,
                            snapshots, the clock, the request journal,
                            faults, the team's apps, users, shops, products
                            and orders), guarded by a bearer token printed in
                            the banner (fix it with STOREFRONT_CONTROL_TOKEN);
                            off by default
  --join                    with --control on a --store another server already
                            serves (another host): keep the fleet's fault rules,
                            clock, rate limit and reset point, which a server
                            starting a fleet clears
  --rate-limit QUOTA/WINDOW requests per app and user per window, e.g. 120/60s
                            (also 600/1m, 5000/1h): answers carry RateLimit-Policy
                            and RateLimit, past it 429 with Retry-After; shared
                            by a fleet on --store; off by default
  --quiet                   no request log, no lines about a stop or the workers
  --help                    show this help
`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
  store: { type: 'string' },
  workers: { type: 'string' },
  'trust-proxy': { type: 'string' },
  reset: { type: 'boolean' },
  products: { type: 'string' },
  ...DATA_SET_OPTIONS,
  'token-ttl': { type: 'string' },
  'demo-client-id': { type: 'string' },
  'demo-login': { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  'webhooks-allow': { type: 'string', multiple: true },
  control: { type: 'boolean' },
  join: { type: 'boolean' },
  'rate-limit': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

type Name = keyof typeof OPTIONS;

/** A bad flag or variable: reported with the usage hint, exit code 2. */
class UsageError extends Error {}

/** The variable of each flag; `--redirect-uri`, repeatable, is read from a plural list. */
const envName = (name: Name) =>
  name === 'redirect-uri' ? 'STOREFRONT_REDIRECT_URIS' : `STOREFRONT_${name.toUpperCase().replaceAll('-', '_')}`;

/** `--webhooks-allow a,b --webhooks-allow c` (and `STOREFRONT_WEBHOOKS_ALLOW=a,b`): the hosts, each once. */
function allowedHosts(value: Value | undefined): string[] {
  const given = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  const hosts = given.flatMap((entry) => entry.split(',')).map((host) => host.trim().replace(/^\[|\]$/g, ''));
  for (const host of hosts) {
    if (!host || /[\s/@]/.test(host)) {
      throw new UsageError(`--webhooks-allow takes host names or addresses, got "${host}"`);
    }
  }
  return [...new Set(hosts)];
}

type Value = string | boolean | string[];

/** The flags merged over their environment variables, and where each value came from (to name it in errors). */
interface Options {
  values: Partial<Record<Name, Value>>;
  /** `--data`, `STOREFRONT_DATA`, `STOREFRONT_DATABASE_URL`… */
  sources: Partial<Record<Name, string>>;
}

function readOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  let values: Partial<Record<Name, Value>>;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const merged: Options = { values: {}, sources: {} };
  for (const name of Object.keys(OPTIONS) as Name[]) {
    const fromEnv = env[envName(name)];
    if (values[name] !== undefined) {
      merged.values[name] = values[name];
      merged.sources[name] = `--${name}`;
    } else if (fromEnv !== undefined) {
      merged.values[name] = fromVariable(name, fromEnv);
      merged.sources[name] = envName(name);
    }
  }
  // The name platforms (Heroku, Render, Fly) give a database's URL, with our prefix.
  if (merged.values.store === undefined && env.STOREFRONT_DATABASE_URL) {
    merged.values.store = env.STOREFRONT_DATABASE_URL;
    merged.sources.store = 'STOREFRONT_DATABASE_URL';
  }
  checkContradictions(merged);
  return merged;
}

/**
 * Options that cannot hold together are refused, both named, rather than one silently dropped: a server that
 * quietly serves other data than asked for is found out late.
 */
function checkContradictions({ values, sources }: Options): void {
  if (values.data !== undefined && values.store !== undefined) {
    throw new UsageError(
      `${sources.data} and ${sources.store} contradict each other: the data is either a JSON data directory` +
        ' (--data) or a PostgreSQL database (--store); give one of them',
    );
  }
}

function fromVariable(name: Name, value: string): Value {
  if (name === 'webhooks-allow') return [value];
  if (name === 'redirect-uri')
    return value
      .split(',')
      .map((uri) => uri.trim())
      .filter(Boolean);
  return OPTIONS[name].type === 'boolean' ? flag(name, value) : value;
}

function flag(name: Name, value: string): boolean {
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off|)$/i.test(value)) return false;
  throw new UsageError(`${envName(name)} must be true or false, got "${value}"`);
}

function integer(name: Name, value: Value | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

function text(value: Value | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `--public-url`, checked as `createServer` will check it. */
function publicUrl(value: Value | undefined): string | undefined {
  const url = text(value);
  if (url === undefined) return undefined;
  try {
    addressesOf(url, '--public-url');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return url;
}

/** `--redirect-uri` (and `STOREFRONT_REDIRECT_URIS`): absolute http(s) URIs without a fragment (RFC 6749 §3.1.2). */
function redirectUris(value: Value | undefined): string[] {
  const uris = Array.isArray(value) ? value : [];
  for (const uri of uris) {
    const url = URL.canParse(uri) ? new URL(uri) : undefined;
    if (!url || !/^https?:$/.test(url.protocol) || uri.includes('#')) {
      throw new UsageError(`--redirect-uri must be an absolute http(s) URI without a fragment, got "${uri}"`);
    }
  }
  return uris;
}

/** `--rate-limit`: `120/60s`. */
function rateLimit(value: Value | undefined): RateLimitPolicy | undefined {
  const given = text(value);
  if (given === undefined) return undefined;
  const policy = parseRateLimit(given);
  if (!policy) {
    throw new UsageError(`--rate-limit must be QUOTA/WINDOW, e.g. 120/60s (a window of 1 s to 24 h), got "${given}"`);
  }
  return policy;
}

/** Reports a bad flag; the exit code of that case. */
function usage(message: string): number {
  console.error(`storefront-server: ${message}\nRun storefront-server --help for the options.`);
  return 2;
}

/**
 * Why the server could not start; for a port in use (another server still running, most often), data another
 * server has open or a data directory it cannot write, the way out: one line, the stack helps nobody there.
 */
function startFailure(error: unknown, port: number, data: string): string {
  const disk = diskFailureOf(error);
  if (disk) {
    const dir = dirname(data);
    const fix = disk.kind === 'full' ? 'free some space there' : 'make it writable (the data and its lock live there)';
    const problem = disk.kind === 'full' ? 'has no space left' : 'cannot be written';
    return `the data directory ${dir} ${problem} (${disk.code}): ${fix}, or choose another with --data FILE or STOREFRONT_DATA.`;
  }
  if (error instanceof StoreLockedError) {
    const { pid, host } = error.holder;
    // A holder on another host (a shared disk) is stopped there: a kill here would reach another process.
    const stop = host === hostname() ? `kill ${pid}` : `on ${host}`;
    return `${error.message} To stop that server: ${stop}; other data: --data FILE or STOREFRONT_DATA.`;
  }
  const { message, code } = error as NodeJS.ErrnoException;
  if (code !== 'EADDRINUSE') return message;
  const other = port === 5000 ? 5001 : 5000;
  return (
    `${message}\nThe port ${port} is in use, by another storefront-server perhaps. Start on another port with` +
    ` --port ${other} or STOREFRONT_PORT=${other}; --port 0 picks a free one.`
  );
}

/** Single-quotes a value for a POSIX shell. */
const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** `3600` → `1 hour`: the largest unit that divides the seconds. */
function duration(seconds: number): string {
  const units = [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1],
  ] as const;
  const [unit, size] = units.find(([, size]) => seconds % size === 0)!;
  const count = seconds / size;
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** What the banner's Data line names: the JSON file, or the database without its password, and the workers. */
function shownData(server: StorefrontServer, data: string, workers: number): string {
  const location = (server.store as { location?: unknown }).location;
  const where = typeof location === 'string' ? location : data;
  return workers > 1 ? `${where}, ${workers} workers` : where;
}

function banner(
  server: StorefrontServer,
  data: string,
  products: number | undefined,
  tokenTtl: number,
  shared: boolean,
): string {
  const lines = [
    `Storefront reference server listening on ${server.url}`,
    `  Base URL:      ${server.baseUrl}`,
    `  Explorer:      ${server.explorerUrl}`,
    `  Token URL:     ${server.origin}/oauth/token`,
    // Newcomers otherwise meet expiry as an unexplained 401 an hour into their session.
    `  Tokens expire: after ${duration(tokenTtl)} (${tokenTtl} s; --token-ttl to change)`,
    `  Data:          ${data} (${server.seeded ? `seeded, ${products ?? DEFAULT_PRODUCTS} products` : 'existing data'})`,
  ];
  if (server.control) {
    lines.push(`  Control API:   ${server.control.url}`, `  Control token: ${server.control.token}`);
    // On a shared database the difference matters to the fleet already there (another host's).
    if (shared) {
      lines.push(
        server.control.joined
          ? '  Sandbox state: the fleet’s, kept (--join)'
          : '  Sandbox state: started anew (fault rules, clock, rate limit, reset point; --join keeps a running fleet’s)',
      );
    }
  }
  const credentials = server.credentials;
  if (!credentials) return [...lines, '  No demo app in this data.'].join('\n');
  const tokenCall =
    `curl -s ${server.origin}/oauth/token -d grant_type=client_credentials -d scope=admin` +
    ` --data-urlencode ${quote(`client_id=${credentials.clientId}`)}` +
    ` --data-urlencode ${quote(`client_secret=${credentials.clientSecret}`)}`;
  return [
    ...lines,
    `  Client id:     ${credentials.clientId}`,
    `  Client secret: ${credentials.clientSecret}`,
    `  Login:         ${credentials.login}`,
    `  Password:      ${credentials.password ?? '(set when the data was created; choose a new one with --demo-password)'}`,
    '',
    'Get a token, then use it:',
    `  TOKEN=$(${tokenCall} | sed -E 's/.*"access_token":"([^"]*)".*/\\1/')`,
    `  curl -s -H "Authorization: Bearer $TOKEN" ${server.baseUrl}/`,
    '',
  ].join('\n');
}

/** `--trust-proxy`: a comma-separated list. */
function trustedProxies(value: Value | undefined): string[] {
  const list = (text(value) ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    checkTrustedProxies(list);
  } catch (error) {
    throw new UsageError(`--trust-proxy: ${(error as Error).message}`);
  }
  return list;
}

/** What holds once the server stopped, in words true of its store. */
function stoppedLine(store: string | undefined): string {
  return store === undefined
    ? 'writes are on disk and the port is free'
    : 'every write it acknowledged is committed in the database and the port is free';
}

/** The request log: on stdout, each line naming the worker that answered in a fleet. */
function requestLog(): true | ((line: string) => void) {
  if (!cluster.isWorker) return true;
  const worker = `worker ${process.pid}:`;
  return (line) => console.log(`${worker} ${line}`);
}

/** `--store`: a PostgreSQL URL (the only other store the command line opens). */
function storeUrl(value: Value | undefined): string | undefined {
  const url = text(value);
  if (url !== undefined && !isPostgresUrl(url)) {
    throw new UsageError(`--store must be a postgres:// or postgresql:// URL, got "${withoutPassword(url)}"`);
  }
  return url;
}

async function main(): Promise<number> {
  // Each subcommand loads when asked for: a server's start does not pay for them (nor for the PostgreSQL driver).
  if (process.argv[2] === 'migrate') return (await import('./migrate-command.js')).runMigrate(process.argv.slice(3));
  if (process.argv[2] === 'import') return (await import('./import-command.js')).runImport(process.argv.slice(3));
  if (process.argv[2] === 'drift') return (await import('./drift-command.js')).runDrift(process.argv.slice(3));
  if (process.argv[2] === 'listen') return (await import('./listen-command.js')).runListen(process.argv.slice(3));
  if (process.argv[2] === 'trigger') return (await import('./trigger-command.js')).runTrigger(process.argv.slice(3));
  if (process.argv[2] === 'apps' || process.argv[2] === 'users') {
    return (await import('./team-command.js')).runTeamCommand(process.argv[2], process.argv.slice(3));
  }
  // The primary stops a fleet's workers (SIGTERM) when the terminal's Ctrl-C reaches them all.
  if (cluster.isWorker) ignoreTerminalInterrupt();
  let options: Options['values'];
  let port: number | undefined;
  let products: number | undefined;
  let tokenTtl: number | undefined;
  let publicOrigin: string | undefined;
  let store: string | undefined;
  let workers: number;
  let trustProxy: string[];
  let extraRedirectUris: string[];
  let webhooksAllow: string[];
  let limit: RateLimitPolicy | undefined;
  try {
    options = readOptions(process.argv.slice(2), process.env).values;
    port = integer('port', options.port, 0, 65535);
    products = integer('products', options.products, 0, 10_000_000);
    tokenTtl = integer('token-ttl', options['token-ttl'], 1, 10 * 365 * 86_400);
    publicOrigin = publicUrl(options['public-url']);
    store = storeUrl(options.store);
    trustProxy = trustedProxies(options['trust-proxy']);
    extraRedirectUris = redirectUris(options['redirect-uri']);
    webhooksAllow = allowedHosts(options['webhooks-allow']);
    limit = rateLimit(options['rate-limit']);
    workers = integer('workers', options.workers, 1, 256) ?? 1;
    const controlToken = process.env.STOREFRONT_CONTROL_TOKEN;
    const tokenProblem = controlToken === undefined ? undefined : controlTokenProblem(controlToken);
    if (options.control === true && tokenProblem) throw new UsageError(`STOREFRONT_CONTROL_TOKEN ${tokenProblem}`);
    if (options.join === true && (options.control !== true || store === undefined)) {
      throw new UsageError(
        '--join keeps the control API’s state of a fleet on a database: it needs --control and --store',
      );
    }
    if (workers > 1 && store === undefined) {
      throw new UsageError('--workers above 1 needs --store postgres://…: a JSON data directory is one process’s');
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usage(error.message);
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (options.control === true && process.env.STOREFRONT_CONTROL_TOKEN === undefined) {
    // Every worker of a fleet takes the same token: they inherit the primary's environment.
    process.env.STOREFRONT_CONTROL_TOKEN = newControlToken();
  }
  if (workers > 1 && cluster.isPrimary) {
    const laterArgs = process.argv.slice(2).filter((arg) => arg !== '--reset');
    // Held before the primary's signal handlers are set, which its start does at once (in this turn).
    const lifeline = await holdLifeline();
    const code = await runPrimary({
      workers,
      laterArgs,
      quiet: options.quiet === true,
      stoppedLine: stoppedLine(store),
    });
    await lifeline?.afterStop(store);
    return code;
  }
  const data = store ?? dataFilePath(text(options.data) ?? 'storefront-data/db.json');
  const demo = {
    clientId: text(options['demo-client-id']),
    clientSecret: text(options['demo-client-secret']),
    login: text(options['demo-login']),
    password: text(options['demo-password']),
  };
  const listenPort = port ?? 4000;
  let server: StorefrontServer;
  try {
    server = await createServer({
      port: listenPort,
      host: text(options.host) ?? '127.0.0.1',
      ...(store === undefined ? { data } : { store }),
      reset: options.reset === true,
      trustProxy,
      products,
      publicUrl: publicOrigin,
      tokenTtl,
      demo: Object.fromEntries(Object.entries(demo).filter(([, value]) => value !== undefined)),
      redirectUris: extraRedirectUris,
      ...(webhooksAllow.length > 0 ? { webhooks: { allow: webhooksAllow } } : {}),
      log: options.quiet === true ? false : requestLog(),
      ...(options.control === true
        ? { control: { token: process.env.STOREFRONT_CONTROL_TOKEN, join: options.join === true } }
        : {}),
      ...(limit ? { rateLimit: limit } : {}),
    });
  } catch (error) {
    // The flags were checked above: whatever fails now (a port in use, unreadable data) is not a usage error.
    console.error(`storefront-server: ${startFailure(error, listenPort, data)}`);
    return 1;
  }
  // Handlers first: a signal that arrives right after the banner must not find the default (kill) action. A
  // fleet's worker says nothing of its stop: its primary says once that the fleet stopped.
  const say = options.quiet === true || cluster.isWorker ? () => undefined : (line: string) => console.log(line);
  const stopped = new Promise<number>((done) => {
    const stop = (signal: NodeJS.Signals) => {
      say(`${signal}: finishing in-flight requests and writes…`);
      server.close().then(
        () => {
          say(`Stopped: ${stoppedLine(store)}.`);
          done(0);
        },
        (error) => {
          console.error(`storefront-server: ${(error as Error).message}`);
          done(1);
        },
      );
    };
    onStopSignal(stop, cluster.isWorker ? ['SIGTERM'] : ['SIGINT', 'SIGTERM']);
  });
  const lifeline = cluster.isWorker ? undefined : await holdLifeline();
  reportListening();
  if (isFirstProcess())
    console.log(
      banner(server, shownData(server, data, workers), products, tokenTtl ?? DEFAULT_TOKEN_TTL, store !== undefined),
    );
  const code = await stopped;
  await lifeline?.afterStop(store);
  return code;
}

/**
 * The line to the process that started this one, when it asked for one (`STOREFRONT_LIFELINE`, set by
 * `startSandbox`): its module loads only then.
 */
async function holdLifeline() {
  if (process.env.STOREFRONT_LIFELINE === undefined) return undefined;
  return (await import('./sandbox/lifeline.js')).holdLifeline();
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
