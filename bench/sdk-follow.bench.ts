/**
 * What the SDK costs on top of the network: `follow` of a product detail (auth header, link lookup, template,
 * transport, JSON parse, entity) against plain `fetch` + `JSON.parse` of the same URL with the same token, both
 * against the same local reference server in the same run, interleaved request by request.
 * Target: SDK / plain ≤ 1.15 on median request times (means are printed too).
 */
import { clientCredentials, createClient } from 'storefront-sdk';
import { createServer } from 'storefront-server';

const REQUESTS = 3000;
const TARGET = 1.15;

const server = await createServer({ port: 0, products: 60 });
try {
  const { clientId, clientSecret } = server.credentials!;
  const auth = clientCredentials({ authUrl: server.origin, clientId, clientSecret, scope: 'admin' });
  const client = createClient({ baseUrl: server.baseUrl, auth });
  const root = await client.root();
  const shop = root.embedded('shops')[0]!;
  const [summary] = await (await root.follow('svc:all_products', { shop_ids: shop.properties.id, per_page: 1 })).take(
    1,
  );
  if (!summary) throw new Error('no product to read');
  const url = summary.link('self').expand();
  const token = (await auth.credentials())!.token;

  const plain = async () => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    if (!response.ok) throw new Error(`plain fetch: ${response.status}`);
    return JSON.parse(await response.text()) as { title: string };
  };
  const sdk = async () => (await summary.follow('self')).properties;

  // Warm-up: connections, JIT, the server's representation cache.
  for (let i = 0; i < 200; i++) {
    await plain();
    await sdk();
  }
  if ((await plain()).title !== (await sdk()).title) throw new Error('the two paths read different documents');

  // Requests alternate one by one (which goes first alternating too), so that load from elsewhere on the machine
  // hits both paths alike. Medians of the per-request times are the headline: a burst of load on the shared
  // machine moves a mean by more than the SDK costs, and a median barely.
  const times = { plain: [] as number[], sdk: [] as number[] };
  for (let i = 0; i < REQUESTS; i++) {
    for (const which of i % 2 ? (['sdk', 'plain'] as const) : (['plain', 'sdk'] as const)) {
      const started = performance.now();
      await (which === 'plain' ? plain() : sdk());
      times[which].push(performance.now() - started);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const µs = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  const ratio = median(times.sdk) / median(times.plain);
  console.log(`SDK follow of a product detail vs plain fetch + JSON.parse, ${REQUESTS} sequential GETs each`);
  console.log(`  plain fetch + JSON.parse  median ${µs(median(times.plain))}, mean ${µs(mean(times.plain))}`);
  console.log(`  SDK follow('self')        median ${µs(median(times.sdk))}, mean ${µs(mean(times.sdk))}`);
  console.log(
    `  ratio SDK/plain           ${ratio.toFixed(3)} of medians, ${(mean(times.sdk) / mean(times.plain)).toFixed(3)} of means (target ≤ ${TARGET})`,
  );
  if (ratio > TARGET) {
    console.error(`FAIL: ratio ${ratio.toFixed(3)} is over ${TARGET}`);
    process.exitCode = 1;
  }
} finally {
  await server.close();
}
