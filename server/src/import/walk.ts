/**
 * The walk of an import: another API of this kind read through the SDK, by its links only (root → the shops the
 * user administers → products with their variants, orders, the themes with their templates and assets, each
 * asset's bytes checked against its digest), into the rows of the reference server's store, ids and timestamps as
 * the source has them. Requests run `concurrency` at a time; the SDK's retries wait as the server's `Retry-After`
 * says. What costs a request per row is kept in the resume state as it arrives, and taken from there (or from the
 * data set being updated, with `since`) instead of being fetched again.
 */
import type {
  Client,
  Order,
  OrderSummary,
  Product,
  ProductSummary,
  Root,
  ShopSummary,
  Theme,
  ThemeAsset,
} from '@storefront-platform/sdk';
import { API_LIMITS, encodeBase64, mapLimited } from '@storefront-platform/sdk/internal';
import { md5Hex } from '../shared/md5.js';
import { sha256 } from '../shared/sha256.js';
import type { AssetFileRow, AssetRow, Dataset, OrderRow, ProductRow, ShopRow, ThemeRow } from '../store/types.js';
import { DEMO_USER_ID } from './demo-access.js';
import type { ImportProgress } from './progress.js';
import type { ResumableRows, ResumeEntry, ResumeState } from './resume-state.js';

/** A failure of the import that says what to do (a shop asked for that the user does not administer, bad bytes). */
export class ImportError extends Error {
  override name = 'ImportError';
}

/** What to walk and how. */
export interface WalkOptions {
  client: Client;
  /** Only these shops (ids); default: every shop the user administers. */
  shops?: readonly string[];
  /** Epoch ms: rows not updated after it are taken from `base` when it has them. */
  since?: number;
  /** A sample of this many products per shop (the same every time). */
  products?: number;
  concurrency: number;
  state: ResumeState;
  /** The data set an import with `since` updates. */
  base?: Dataset;
  onProgress?: (event: ImportProgress) => void;
}

/** A source address the sandbox serves elsewhere: an asset's file or a theme's preview page. */
export type SourceLink = { kind: 'asset'; row: AssetRow } | { kind: 'preview'; row: ThemeRow };

/** The rows read, and the source's addresses of files and pages, to rewrite. */
export interface Walked {
  data: Pick<Dataset, 'shops' | 'products' | 'orders' | 'themes' | 'templates' | 'assets' | 'files'>;
  links: Map<string, SourceLink>;
  /** Rows read by a request of this run, and rows taken from the resume state or the updated data set. */
  fetched: number;
  reused: number;
}

/** Items of a list per request: the most the API allows. */
const PER_PAGE = API_LIMITS.perPage.max;
/** Rows fetched between two saves of the resume state. */
const BATCH = 100;

/** Every item of the list `first` starts, through `next`. */
async function allItems<T>(first: PromiseLike<{ items(): AsyncIterable<T> }>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of (await first).items()) items.push(item);
  return items;
}

/** `count` of `items`, the same ones whatever order the list came in: the lowest hashes of their ids. */
function sample<T extends { properties: { id: string } }>(items: readonly T[], count: number | undefined): T[] {
  if (count === undefined || items.length <= count) return [...items];
  const key = (item: T) => Buffer.from(sha256(new TextEncoder().encode(item.properties.id))).toString('hex');
  return items
    .map((item) => ({ item, key: key(item) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, count)
    .map(({ item }) => item);
}

/** Reads the source into rows. */
export async function walk(options: WalkOptions): Promise<Walked> {
  const { client } = options;
  const root = await client.root();
  const administered = root.embedded('shops');
  const wanted = options.shops;
  if (wanted) {
    const ids = new Set(administered.map((shop) => shop.properties.id));
    const unknown = wanted.filter((id) => !ids.has(id));
    if (unknown.length) {
      throw new ImportError(
        `shop ${unknown.join(', ')} is not among the shops this user administers (${[...ids].join(', ') || 'none'})`,
      );
    }
  }
  const walked: Walked = {
    data: { shops: [], products: [], orders: [], themes: [], templates: [], assets: [], files: [] },
    links: new Map(),
    fetched: 0,
    reused: 0,
  };
  for (const summary of administered) {
    if (wanted && !wanted.includes(summary.properties.id)) continue;
    await walkShop(root, summary, options, walked);
  }
  return walked;
}

async function walkShop(root: Root, summary: ShopSummary, options: WalkOptions, walked: Walked): Promise<void> {
  const shop = await summary.follow('self');
  const p = shop.properties;
  const { name } = p;
  const tell = (phase: ImportProgress['phase'], done: number, total: number) =>
    options.onProgress?.({ shop: { id: p.id, name }, phase, done, total });
  const row: ShopRow = {
    id: p.id,
    owner_id: DEMO_USER_ID,
    name,
    subdomain: p.subdomain,
    description: p.description,
    locale: p.locale,
    currency_code: p.currency_code,
    public: await isPublic(root, p.id, p.subdomain),
    // The API does not show when a shop was created.
    created_on: p.updated_on,
    updated_on: p.updated_on,
  };
  walked.data.shops.push(row);
  walked.fetched++;
  const counts = { products: 0, orders: 0, themes: 0, templates: 0, assets: 0 };

  const products = sample(await allItems(shop.follow('svc:products', { per_page: PER_PAGE })), options.products);
  walked.data.products.push(
    ...(await detailed(products, 'products', options, walked, tell, async (item) =>
      productRow(await item.follow('self'), row.id),
    )),
  );
  counts.products = products.length;

  if (shop.can('svc:orders')) {
    const orders = await allItems(shop.follow('svc:orders', { per_page: PER_PAGE }));
    walked.data.orders.push(
      ...(await detailed(orders, 'orders', options, walked, tell, async (item) =>
        orderRow(await item.follow('self'), row.id),
      )),
    );
    counts.orders = orders.length;
  }

  const themes: Theme[] = [];
  if (shop.can('svc:theme')) {
    const production = await shop.follow('svc:theme');
    themes.push(production);
    if (production.can('svc:dev_theme')) themes.push(await production.follow('svc:dev_theme'));
  }
  const assets: { entity: ThemeAsset; row: AssetRow }[] = [];
  for (const theme of themes) {
    walked.fetched++;
    const t = theme.properties;
    const themeRow: ThemeRow = {
      id: t.id,
      shop_id: row.id,
      title: t.title,
      production: t.production,
      settings: t.settings,
      // Set as the data set is built: the source's is its own secret.
      preview_key: '',
      created_on: t.updated_on,
      updated_on: t.updated_on,
    };
    walked.data.themes.push(themeRow);
    if (theme.can('svc:theme_preview'))
      walked.links.set(theme.link('svc:theme_preview').href, { kind: 'preview', row: themeRow });
    for (const { properties: x } of theme.embedded('templates')) {
      walked.data.templates.push({ ...themeFile(x, t.id), body: x.body });
      counts.templates++;
    }
    for (const asset of theme.embedded('assets')) {
      const x = asset.properties;
      const assetRow: AssetRow = {
        ...themeFile(x, t.id),
        content_type: x.content_type,
        digest: x.digest,
        file_size: x.file_size,
      };
      walked.data.assets.push(assetRow);
      if (asset.can('file')) walked.links.set(asset.link('file').href, { kind: 'asset', row: assetRow });
      assets.push({ entity: asset, row: assetRow });
    }
    counts.themes++;
  }
  walked.data.files.push(...(await assetFiles(assets, options, walked, (done) => tell('assets', done, assets.length))));
  counts.assets = assets.length;
  options.onProgress?.({ shop: { id: row.id, name }, phase: 'done', done: 1, total: 1, counts });
}

/** What a template's and an asset's rows share: the API does not show when either was created. */
function themeFile(x: { id: string; file_name: string; updated_on: string }, themeId: string) {
  return { id: x.id, theme_id: themeId, file_name: x.file_name, created_on: x.updated_on, updated_on: x.updated_on };
}

/** Whether the shop is in the public list of shops (the API shows no flag): looked up by its subdomain. */
async function isPublic(root: Root, id: string, subdomain: string): Promise<boolean> {
  if (!root.can('svc:shops')) return false;
  const listed = await allItems(root.follow('svc:shops', { q: subdomain, per_page: PER_PAGE }));
  return listed.some((shop) => shop.properties.id === id);
}

/** A row read, and its entry for the resume state when a request of this run fetched it (`undefined`: kept). */
type Read<R> = { row: R; fetched?: ResumeEntry };

/**
 * `read` over `items`, `concurrency` at a time, in batches: after each batch, the rows it fetched go into the resume
 * state and the progress is told, so that a kill loses one batch at most.
 */
async function readInBatches<T, R>(
  items: readonly T[],
  options: WalkOptions,
  walked: Walked,
  progress: (done: number) => void,
  read: (item: T) => Promise<Read<R>>,
): Promise<R[]> {
  const rows: R[] = [];
  progress(0);
  for (let start = 0; start < items.length; start += BATCH) {
    const got = await mapLimited(items.slice(start, start + BATCH), options.concurrency, read);
    const fresh = got.flatMap(({ fetched }) => (fetched ? [fetched] : []));
    walked.fetched += fresh.length;
    walked.reused += got.length - fresh.length;
    rows.push(...got.map(({ row }) => row));
    await options.state.add(fresh);
    progress(rows.length);
  }
  return rows;
}

/** The details of listed products or orders: from the resume state or `base` when current, else fetched. */
function detailed<T extends ProductSummary | OrderSummary, K extends 'products' | 'orders'>(
  items: readonly T[],
  kind: K,
  options: WalkOptions,
  walked: Walked,
  tell: (phase: K, done: number, total: number) => void,
  fetch: (item: T) => Promise<ResumableRows[K]>,
): Promise<ResumableRows[K][]> {
  type Row = ResumableRows[K];
  const base = new Map((options.base?.[kind] as readonly Row[] | undefined)?.map((row) => [row.id, row]));
  const progress = (done: number) => tell(kind, done, items.length);
  return readInBatches(items, options, walked, progress, async (item): Promise<Read<Row>> => {
    const { id, updated_on } = item.properties;
    const kept = base.get(id);
    if (kept && options.since !== undefined && Date.parse(updated_on) <= options.since) return { row: kept };
    const staged = options.state.get(kind, id);
    if (staged?.updated_on === updated_on) return { row: staged };
    const row = await fetch(item);
    return { row, fetched: { kind, row } as ResumeEntry };
  });
}

/** `keys` of `from` and nothing else: a row keeps what the contract names, whatever more a source sends. */
function pick<T, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, from[key]])) as Pick<T, K>;
}

// What a row stores of a representation: not its shop (the row's `shop_id`), its embedded resources, or what the
// server computes when it shows one (a product's stock and currency, an order's and a line's totals).
const PRODUCT_FIELDS = [
  'id',
  'title',
  'slug',
  'description',
  'price',
  'price_comparison',
  'status',
  'vendor',
  'tags',
  'created_on',
  'updated_on',
] as const;
const VARIANT_FIELDS = ['id', 'title', 'sku', 'stock', 'price'] as const;
const ORDER_FIELDS = [
  'id',
  'code',
  'status',
  'currency_code',
  'contact',
  'address',
  'created_on',
  'updated_on',
] as const;
const LINE_ITEM_FIELDS = ['id', 'product_id', 'variant_id', 'title', 'quantity', 'unit_price'] as const;

function productRow(detail: Product, shopId: string): ProductRow {
  const variants = detail.embedded('variants').map((variant) => pick(variant.properties, VARIANT_FIELDS));
  return { ...pick(detail.properties, PRODUCT_FIELDS), shop_id: shopId, variants };
}

function orderRow(detail: Order, shopId: string): OrderRow {
  const lineItems = detail.embedded('line_items').map((item) => pick(item.properties, LINE_ITEM_FIELDS));
  return { ...pick(detail.properties, ORDER_FIELDS), shop_id: shopId, line_items: lineItems };
}

/** The bytes of `assets`: from `base` or the resume state when of the same digest, else fetched and checked. */
function assetFiles(
  assets: readonly { entity: ThemeAsset; row: AssetRow }[],
  options: WalkOptions,
  walked: Walked,
  progress: (done: number) => void,
): Promise<AssetFileRow[]> {
  const baseDigests = new Map(options.base?.assets.map((asset) => [asset.id, asset.digest]));
  const baseFiles = new Map(options.base?.files.map((file) => [file.id, file]));
  return readInBatches(assets, options, walked, progress, async ({ entity, row }): Promise<Read<AssetFileRow>> => {
    const kept = baseFiles.get(row.id);
    if (kept && baseDigests.get(row.id) === row.digest) return { row: kept };
    const staged = options.state.get('files', row.id);
    if (staged?.digest === row.digest) return { row: { id: staged.id, data: staged.data } };
    const response = (await entity.follow('file', undefined, { maxResponseSize: API_LIMITS.assetBytes })) as Response;
    const bytes = new Uint8Array(await response.arrayBuffer());
    const digest = md5Hex(bytes);
    if (digest !== row.digest) {
      throw new ImportError(
        `the bytes of asset ${row.id} (${row.file_name}) have MD5 ${digest}, not the digest ${row.digest} the API gives`,
      );
    }
    const file = { id: row.id, data: encodeBase64(bytes) };
    return { row: file, fetched: { kind: 'files', row: { ...file, digest } } };
  });
}
