/**
 * What the SDK costs on top of the network: `follow` of a product detail (auth header, link lookup, template,
 * transport, JSON parse, entity) against plain `fetch` + `JSON.parse` of the same URL with the same token, both
 * against the same local reference server in the same run, interleaved request by request.
 * Target: SDK / plain ≤ 1.15, judged on the median of the rounds' ratios, which a burst of load elsewhere on
 * the machine moves less than the overall ratio (both are printed).
 */
import { clientCredentials, createClient } from 'storefront-sdk';
import { createServer } from 'storefront-sdk/server';

const ROUNDS = 20;
const PER_ROUND = 100;
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

  // Requests alternate one by one (the first of each pair alternating too), so that load from elsewhere on the
  // machine hits both paths alike; a round's ratio is the ratio of its two sums.
  const totals = { plain: 0, sdk: 0 };
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const times = { plain: 0, sdk: 0 };
    for (let i = 0; i < PER_ROUND; i++) {
      for (const which of i % 2 ? (['sdk', 'plain'] as const) : (['plain', 'sdk'] as const)) {
        const started = performance.now();
        await (which === 'plain' ? plain() : sdk());
        times[which] += performance.now() - started;
      }
    }
    totals.plain += times.plain;
    totals.sdk += times.sdk;
    ratios.push(times.sdk / times.plain);
  }
  ratios.sort((a, b) => a - b);
  const requests = ROUNDS * PER_ROUND;
  const ratio = totals.sdk / totals.plain;
  const median = ratios[Math.floor(ratios.length / 2)]!;
  console.log(`SDK follow of a product detail vs plain fetch + JSON.parse, ${requests} sequential GETs each`);
  console.log(`  plain fetch + JSON.parse  ${((totals.plain / requests) * 1000).toFixed(0)} µs/request`);
  console.log(`  SDK follow('self')        ${((totals.sdk / requests) * 1000).toFixed(0)} µs/request`);
  console.log(
    `  ratio SDK/plain           ${ratio.toFixed(3)} overall, ${median.toFixed(3)} median of ${ROUNDS} rounds (target ≤ ${TARGET})`,
  );
  if (median > TARGET) {
    console.error(`FAIL: median ratio ${median.toFixed(3)} is over ${TARGET}`);
    process.exitCode = 1;
  }
} finally {
  await server.close();
}
