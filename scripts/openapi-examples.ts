/**
 * Generates `server/src/openapi/examples.generated.json`: the answer of each resource GET of the OpenAPI document as
 * the server gives it over a small seed (the demo data, deterministic), so that the document's examples hold real
 * ids and links a client (Prism's mock, a reader) can follow. The addresses are placeholders the document replaces
 * with the serving server's own (`rebaseExample` in server/src/openapi/examples.ts).
 *
 *   npx tsx scripts/openapi-examples.ts           write the file
 *   npx tsx scripts/openapi-examples.ts --check   exit 1 when the committed file is not what the seed gives
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CoreContext, createCore, createMemoryStore } from '../server/src/index.js';
import { issueToken } from '../server/src/oauth/index.js';
import { EXAMPLE_ADDRESSES } from '../server/src/openapi/examples.js';
import { seed } from '../server/src/seed/index.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const EXAMPLES_MODULE = join(ROOT, 'server', 'src', 'openapi', 'examples.generated.json');
/** The seed's own instant: every date of the examples is the seed's. */
const NOW = Date.parse('2026-01-01T00:00:00Z');

type Json = Record<string, unknown>;

/** Each example's operation, and the path (under the base URL) whose answer it is. */
async function answers(): Promise<Record<string, unknown>> {
  const { dataset } = seed({ products: 3, orders: 2, now: NOW, clientSecret: 'example', password: 'example' });
  // The one random value the seed writes into an answer: fixed, so that the examples are the same on every run.
  for (const theme of dataset.themes ?? []) theme.preview_key = `examplePreviewKey${theme.id}`.padEnd(24, '0');
  const store = createMemoryStore(dataset);
  const context: CoreContext = { store, clock: { now: () => NOW }, addresses: EXAMPLE_ADDRESSES, tokenTtl: 3600 };
  const core = createCore(context);
  const { token } = await issueToken(context, { appId: '1', userId: '1', scopes: ['admin'] });
  const shop = store.all('shops')[0]!;
  const product = store.where('products', 'shop_id', shop.id)[0]!;
  const order = store.where('orders', 'shop_id', shop.id)[0]!;
  const theme = store.where('themes', 'shop_id', shop.id).find((t) => t.production)!;
  const template = store.where('templates', 'theme_id', theme.id).find((t) => t.file_name === 'index.html')!;
  const paths: Record<string, string> = {
    getRoot: '',
    listShops: '/shops.json?per_page=2',
    getShop: `/shops/${shop.id}.json`,
    listProducts: '/products.json?per_page=2',
    getProduct: `/shops/${shop.id}/products/${product.id}.json`,
    listOrders: '/orders.json?per_page=2',
    getOrder: `/shops/${shop.id}/orders/${order.id}.json`,
    getTheme: `/themes/${theme.id}`,
    getTemplate: `/themes/${theme.id}/templates/${template.id}`,
  };
  const out: Record<string, unknown> = {};
  for (const [operation, path] of Object.entries(paths)) {
    const request = new Request(`${EXAMPLE_ADDRESSES.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const response = await core.fetch(request);
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
    out[operation] = (await response.json()) as Json;
  }
  return out;
}

/** The generated file's text: data, read through `server/src/openapi/examples.ts`. */
export async function examplesModule(): Promise<string> {
  return `${JSON.stringify(await answers(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await examplesModule();
  if (process.argv.includes('--check')) {
    if ((await readFile(EXAMPLES_MODULE, 'utf8').catch(() => '')) !== text) {
      console.error(`${EXAMPLES_MODULE} is stale: run npm run docs`);
      process.exit(1);
    }
  } else {
    await writeFile(EXAMPLES_MODULE, text);
    console.log(`wrote ${EXAMPLES_MODULE}`);
  }
}
