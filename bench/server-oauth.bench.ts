/**
 * The authorization service with 1 000 and 100 000 stored tokens, side by side (in-memory store, so that
 * disk latency does not hide the service's own cost): bearer verification per API request (one SHA-256 and
 * one indexed lookup, so it must not grow with the token count), a client-credentials token request through
 * the token endpoint, and the hourly purge scan of expired tokens. The 1 000-token run is the baseline.
 *
 * Then reads during a password-guessing run, over real HTTP: the latency of an unrelated GET while 150 wrong
 * passwords arrive at 15/s, each from its own loopback address for its own login (a spray the throttle does
 * not stop, so every one costs a scrypt run), with the bound on concurrent password checks lifted and in
 * place; and the same 150 against one login from one address, which the throttle stops after five.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { basicAuthorization } from '@storefront-platform/sdk/internal';
import { toFetchHandler } from '../server/src/core/fetch-adapter.js';
import type { CoreContext, CoreRequest } from '../server/src/core/types.js';
import { authenticate, createOAuth, issueToken } from '../server/src/oauth/index.js';
import { hashSecret, passwordChecks } from '../server/src/oauth/secrets.js';
import { seed } from '../server/src/seed/index.js';
import { createMemoryStore } from '../server/src/store/memory.js';
import type { TokenRow } from '../server/src/store/types.js';
import { percentile } from './stats.js';

const SIZES = [1_000, 100_000];
const VERIFICATIONS = 50_000;
const REQUESTS = 500;
const DAY = 86_400_000;

interface Figures {
  /** Microseconds per bearer verification. */
  verify: number;
  /** Token endpoint latencies, ms, sorted. */
  tokenRequest: number[];
  /** One purge scan, ms. */
  purge: number;
}

const { dataset, credentials } = seed({ products: 10, orders: 2, password: 'bench' });

async function measure(tokens: number): Promise<Figures> {
  const now = Date.now();
  // Half of the stored tokens expired 40 days ago: what the purge has to find.
  const rows: TokenRow[] = Array.from({ length: tokens }, (_, i) => ({
    id: `t${i}`,
    token_hash: hashSecret(`stored-${i}`),
    app_id: '1',
    user_id: '1',
    scopes: ['public'],
    issued_at: now - (i % 2 ? 41 * DAY : 0),
    expires_at: now + (i % 2 ? -40 * DAY : 3_600_000),
  }));
  let clock = now;
  const context: CoreContext = {
    store: createMemoryStore({ ...structuredClone(dataset), tokens: rows }),
    clock: { now: () => clock },
    addresses: {
      origin: 'http://localhost:4000',
      baseUrl: 'http://localhost:4000/v1',
      authUrl: 'http://localhost:4000',
      staticUrl: 'http://localhost:4000/static',
    },
    tokenTtl: 3600,
  };

  // The first issuance runs the purge scan (then not again for an hour of the clock).
  let start = performance.now();
  const { token } = await issueToken(context, { appId: '1', userId: '1', scopes: ['public'] });
  const purge = performance.now() - start;

  const request: CoreRequest = {
    method: 'GET',
    url: new URL('http://localhost:4000/v1/products.json'),
    headers: new Headers({ authorization: `Bearer ${token}` }),
    body: async () => new Uint8Array(),
  };
  for (let i = 0; i < 1000; i++) authenticate(context, request); // warm-up
  start = performance.now();
  for (let i = 0; i < VERIFICATIONS; i++) {
    if (!authenticate(context, request).ok) throw new Error('verification failed');
  }
  const verify = ((performance.now() - start) * 1000) / VERIFICATIONS;

  const oauth = createOAuth(context);
  const handle = toFetchHandler(async (r) => (await oauth.handle(r, 'bench'))!);
  const basic = basicAuthorization(credentials);
  const tokenRequest: number[] = [];
  for (let i = -20; i < REQUESTS; i++) {
    clock += 1; // distinct instants, never an hour apart: no purge inside the timed loop
    start = performance.now();
    const response = await handle(
      new Request('http://localhost:4000/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        body: 'grant_type=client_credentials&scope=admin',
      }),
    );
    await response.text();
    if (response.status !== 200) throw new Error(`token request failed: ${response.status}`);
    if (i >= 0) tokenRequest.push(performance.now() - start);
  }
  tokenRequest.sort((a, b) => a - b);
  return { verify, tokenRequest, purge };
}

const small = await measure(SIZES[0]!);
const large = await measure(SIZES[1]!);
const rows: [string, (f: Figures) => number, (n: number) => string][] = [
  ['bearer verification', (f) => f.verify, (n) => `${n.toFixed(2)} µs`],
  ['token request (client credentials), median', (f) => percentile(f.tokenRequest, 50), (n) => `${n.toFixed(3)} ms`],
  ['token request, p95', (f) => percentile(f.tokenRequest, 95), (n) => `${n.toFixed(3)} ms`],
  ['purge scan (half the tokens expired)', (f) => f.purge, (n) => `${n.toFixed(1)} ms`],
];
console.log(
  `Authorization service, in-memory store: ${VERIFICATIONS} verifications, ${REQUESTS} token requests per size\n`,
);
console.log(
  `${''.padEnd(44)}${`${SIZES[0]} tokens`.padStart(14)}${`${SIZES[1]} tokens`.padStart(16)}${'ratio'.padStart(9)}`,
);
for (const [label, pick, format] of rows) {
  const a = pick(small);
  const b = pick(large);
  console.log(
    `${label.padEnd(44)}${format(a).padStart(14)}${format(b).padStart(16)}${`${(b / a).toFixed(2)}×`.padStart(9)}`,
  );
}

// --- Reads during a guessing run ---

const GUESSES = 150;
const GUESS_RATE = 15;

interface Answer {
  status: number;
  ms: number;
  body: string;
}

/** One request, over `agent` or over its own connection from `localAddress`. */
function send(
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string; agent?: Agent },
): Promise<Answer> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        ...(options.localAddress ? { localAddress: options.localAddress, agent: false } : { agent: options.agent }),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - start, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

interface GuessingServer {
  url: string;
  clientId: string;
  clientSecret: string;
  login: string;
  checks: number;
  stop(): Promise<void>;
}

/** `bench/guessing-server.ts` in a child process, with `checks` concurrent password checks at most. */
async function startServer(checks: number): Promise<GuessingServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('guessing-server.ts', import.meta.url))],
    {
      env: { ...process.env, GUESSING_CHECKS: String(checks) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const stop = async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  };
  return { ...(JSON.parse(line) as Omit<GuessingServer, 'stop'>), stop };
}

interface RunFigures {
  /** Latencies of the reads made while the guesses were answered, ms, sorted. */
  reads: number[];
  /** How the guesses were answered: count by status. */
  statuses: Record<number, number>;
  /** From the first guess sent to the last one answered, ms. */
  duration: number;
}

/**
 * Reads in a loop over one keep-alive connection; with `guesses`, 150 wrong passwords at 15/s meanwhile,
 * `spray`ed (each from its own loopback address for its own login) or all from one address for one login.
 * Without, 300 reads on an idle server.
 */
async function run(checks: number, guesses: 'none' | 'spray' | 'one login'): Promise<RunFigures> {
  const server = await startServer(checks);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const form = {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basicAuthorization({ clientId: server.clientId, clientSecret: server.clientSecret }),
    };
    const tokenUrl = new URL('/oauth/token', server.url);
    const granted = await send(tokenUrl, {
      method: 'POST',
      headers: form,
      body: 'grant_type=client_credentials&scope=admin',
      agent,
    });
    const token = (JSON.parse(granted.body) as { access_token: string }).access_token;
    const readUrl = new URL('/v1/products.json?per_page=5', server.url);
    const read = () => send(readUrl, { headers: { authorization: `Bearer ${token}` }, agent });
    for (let i = 0; i < 20; i++) await read(); // warm-up

    const reads: number[] = [];
    const statuses: Record<number, number> = {};
    if (guesses === 'none') {
      for (let i = 0; i < 300; i++) reads.push((await read()).ms);
      return { reads: reads.sort((a, b) => a - b), statuses, duration: 0 };
    }
    let done = false;
    const reading = (async () => {
      while (!done) reads.push((await read()).ms);
    })();
    const start = performance.now();
    const answered: Promise<void>[] = [];
    for (let i = 0; i < GUESSES; i++) {
      const spray = guesses === 'spray';
      const username = spray ? `user-${i}` : server.login;
      const body = new URLSearchParams({ grant_type: 'password', username, password: `guess ${i}` }).toString();
      const localAddress = spray ? `127.0.${1 + Math.floor(i / 254)}.${(i % 254) + 2}` : '127.0.0.1';
      answered.push(
        send(tokenUrl, { method: 'POST', headers: form, body, localAddress }).then(({ status }) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1000 / GUESS_RATE));
    }
    await Promise.all(answered);
    const duration = performance.now() - start;
    done = true;
    await reading;
    return { reads: reads.sort((a, b) => a - b), statuses, duration };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

const BOUND = passwordChecks.limit;
const runs: [string, RunFigures][] = [
  ['no guessing', await run(BOUND, 'none')],
  ['spray (150 addresses and logins), checks unbounded', await run(Number.POSITIVE_INFINITY, 'spray')],
  [`spray, at most ${BOUND} password check at a time`, await run(BOUND, 'spray')],
  ['one login from one address (throttled)', await run(BOUND, 'one login')],
];
console.log(
  `\nAn unrelated GET (/v1/products.json, keep-alive) during ${GUESSES} wrong passwords at ${GUESS_RATE}/s, server in its own process\n`,
);
console.log(`${''.padEnd(54)}${'p50'.padStart(10)}${'p95'.padStart(10)}${'reads'.padStart(8)}  guesses answered`);
for (const [label, figures] of runs) {
  const { reads, statuses, duration } = figures;
  const answers = Object.entries(statuses).map(([status, n]) => `${n}× ${status}`);
  const answered = answers.length ? `${answers.join(', ')} in ${(duration / 1000).toFixed(1)} s` : '';
  const ms = (p: number) => `${percentile(reads, p).toFixed(1)} ms`.padStart(10);
  console.log(`${label.padEnd(54)}${ms(50)}${ms(95)}${String(reads.length).padStart(8)}  ${answered}`);
}
