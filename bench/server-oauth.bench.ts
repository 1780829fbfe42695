/**
 * The authorization service with 1 000 and 100 000 stored tokens, side by side (in-memory store, so that
 * disk latency does not hide the service's own cost): bearer verification per API request (one SHA-256 and
 * one indexed lookup, so it must not grow with the token count), a client-credentials token request through
 * the token endpoint, and the hourly purge scan of expired tokens. The 1 000-token run is the baseline.
 */
import { basicAuthorization } from 'storefront-sdk/internal';
import { toFetchHandler } from '../server/src/core/fetch-adapter.js';
import type { CoreContext, CoreRequest } from '../server/src/core/types.js';
import { authenticate, createOAuth, issueToken } from '../server/src/oauth/index.js';
import { hashSecret } from '../server/src/oauth/secrets.js';
import { seed } from '../server/src/seed/index.js';
import { createMemoryStore } from '../server/src/store/memory.js';
import type { TokenRow } from '../server/src/store/types.js';

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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
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
  const handle = toFetchHandler(async (r) => (await oauth.handle(r))!);
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
