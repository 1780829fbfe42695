/**
 * SDK HTTP cache: a traversal root → shop → theme → every template, done twice by one client against the
 * reference server. The first pass (empty cache) is the baseline; the second revalidates every copy with
 * `If-None-Match` / `If-Modified-Since` and gets 304s. Figures: response-body bytes (as decoded, counted in an
 * injected `fetch`) and wall time of each pass, medians over fresh clients. Pass criteria: the second pass moves
 * ≥ 90% fewer body bytes and takes no longer than the first.
 */
import { clientCredentials, createClient, createHttpCache, type Theme } from '../sdk/src/index.js';
import { createServer } from '../server/src/index.js';
import { recordingFetch } from '../test/support/recording-fetch.js';
import { median } from './stats.js';

const ROUNDS = 30;
const WARMUP = 5;

const server = await createServer({ port: 0, products: 50 });
const { clientId, clientSecret } = server.credentials!;

const recorder = recordingFetch();

// One token for the whole run: the bench measures the cache, not the token endpoint.
const auth = clientCredentials({ authUrl: server.origin, clientId, clientSecret, scope: 'admin', fetch });
await auth.credentials();

async function traverse(client: ReturnType<typeof createClient>): Promise<number> {
  let templates = 0;
  const root = await client.root();
  for (const summary of root.embedded('shops')) {
    const shop = await summary.follow('self');
    const theme = (await (shop as unknown as { follow(rel: 'svc:theme'): Promise<Theme> }).follow(
      'svc:theme',
    )) as Theme;
    const loaded = await Promise.all(theme.embedded('templates').map((template) => template.follow('self')));
    templates += loaded.length;
  }
  return templates;
}

async function pass(client: ReturnType<typeof createClient>) {
  recorder.exchanges.length = 0;
  const started = performance.now();
  const templates = await traverse(client);
  const ms = performance.now() - started;
  const bytes = recorder.exchanges.reduce((sum, exchange) => sum + exchange.bodyBytes, 0);
  return { ms, bytes, requests: recorder.exchanges.length, templates };
}

const first: Awaited<ReturnType<typeof pass>>[] = [];
const second: Awaited<ReturnType<typeof pass>>[] = [];
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  const client = createClient({ baseUrl: server.baseUrl, auth, cache: createHttpCache(), fetch: recorder.fetch });
  const a = await pass(client);
  const b = await pass(client);
  if (round >= WARMUP) {
    first.push(a);
    second.push(b);
  }
}
await server.close();

const [a, b] = [first[0]!, second[0]!];
const t1 = median(first.map((p) => p.ms));
const t2 = median(second.map((p) => p.ms));
const saved = 1 - b.bytes / a.bytes;
console.log(`traversal: root → ${a.templates} templates over ${a.requests} GETs per pass, ${ROUNDS} rounds (median)`);
console.log(`pass 1 (empty cache):  ${a.bytes.toLocaleString('en')} body bytes, ${t1.toFixed(1)} ms`);
console.log(`pass 2 (revalidating): ${b.bytes.toLocaleString('en')} body bytes, ${t2.toFixed(1)} ms`);
console.log(
  `body bytes saved: ${(saved * 100).toFixed(1)}% (need ≥ 90%); time ratio pass 2 / pass 1: ${(t2 / t1).toFixed(2)} (need ≤ 1)`,
);
const ok = saved >= 0.9 && t2 <= t1;
console.log(ok ? 'PASS' : 'FAIL');
if (!ok) process.exitCode = 1;
