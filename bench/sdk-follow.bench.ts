/**
 * What the SDK costs on top of the network: `follow` of a product detail (auth header, link lookup, template,
 * transport on ky, JSON parse, entity) against plain `fetch` + `JSON.parse` of the same URL with the same token, all
 * against the same local reference server in the same run, interleaved request by request.
 *
 * Two clients: the default one, whose HTTP cache revalidates the detail it read (a conditional GET answered 304,
 * the body taken from the cache), and one with `cache: false`, which makes the same full GET as plain `fetch`.
 * Target: default client / plain ≤ 1.15 on median request times (means are printed too); the `cache: false`
 * ratio is printed as what ky and the SDK cost on a full GET.
 */
import { type Client, clientCredentials, createClient } from '@storefront-platform/sdk';
import { createServer } from '@storefront-platform/server';
import { median } from './stats.js';

const REQUESTS = 3000;
const TARGET = 1.15;

const server = await createServer({ port: 0, products: 60 });
try {
  const { clientId, clientSecret } = server.credentials!;
  const auth = clientCredentials({ authUrl: server.origin, clientId, clientSecret, scope: 'admin' });

  /** The summary of the first product of the first shop, as `client` reads it. */
  const firstProduct = async (client: Client) => {
    const root = await client.root();
    const shop = root.embedded('shops')[0]!;
    const list = await root.follow('svc:all_products', { shop_ids: shop.properties.id, per_page: 1 });
    const [summary] = await list.take(1);
    if (!summary) throw new Error('no product to read');
    return summary;
  };
  const cached = await firstProduct(createClient({ baseUrl: server.baseUrl, auth }));
  const uncached = await firstProduct(createClient({ baseUrl: server.baseUrl, auth, cache: false }));
  const url = cached.link('self').expand();
  const token = (await auth.credentials())!.token;

  const paths = {
    plain: async () => {
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
      if (!response.ok) throw new Error(`plain fetch: ${response.status}`);
      return JSON.parse(await response.text()) as { title: string };
    },
    sdk: async () => (await cached.follow('self')).properties,
    uncached: async () => (await uncached.follow('self')).properties,
  };
  const names = Object.keys(paths) as (keyof typeof paths)[];

  // Warm-up: connections, JIT, the server's representation cache, the client's HTTP cache.
  for (let i = 0; i < 200; i++) for (const name of names) await paths[name]();
  const titles = new Set(await Promise.all(names.map(async (name) => (await paths[name]()).title)));
  if (titles.size !== 1) throw new Error('the paths read different documents');

  // Requests alternate one by one (which goes first rotating too), so that load from elsewhere on the machine
  // hits every path alike. Medians of the per-request times are the headline: a burst of load on the shared
  // machine moves a mean by more than the SDK costs, and a median barely.
  const times = { plain: [] as number[], sdk: [] as number[], uncached: [] as number[] };
  for (let i = 0; i < REQUESTS; i++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length]!;
      const started = performance.now();
      await paths[name]();
      times[name].push(performance.now() - started);
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const µs = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  const ratio = (name: 'sdk' | 'uncached') => median(times[name]) / median(times.plain);
  const line = (label: string, name: keyof typeof times) =>
    console.log(`  ${label.padEnd(34)} median ${µs(median(times[name]))}, mean ${µs(mean(times[name]))}`);
  console.log(`SDK follow of a product detail vs plain fetch + JSON.parse, ${REQUESTS} sequential GETs each`);
  line('plain fetch + JSON.parse', 'plain');
  line("SDK follow('self'), default client", 'sdk');
  line("SDK follow('self'), cache: false", 'uncached');
  for (const name of ['sdk', 'uncached'] as const) {
    const label = name === 'sdk' ? 'ratio default client/plain' : 'ratio cache: false/plain';
    const target = name === 'sdk' ? ` (target ≤ ${TARGET})` : ' (for information)';
    const means = (mean(times[name]) / mean(times.plain)).toFixed(3);
    console.log(`  ${label.padEnd(34)} ${ratio(name).toFixed(3)} of medians, ${means} of means${target}`);
  }
  if (ratio('sdk') > TARGET) {
    console.error(`FAIL: ratio ${ratio('sdk').toFixed(3)} is over ${TARGET}`);
    process.exitCode = 1;
  }
} finally {
  await server.close();
}
