/**
 * Triggering an event with real state (`storefront-server trigger`, `server.trigger()`): the product or order is
 * created or changed through the store, in one write that also records its event, so that the event and a later
 * GET of its subject agree (the event's `etag` is the one that GET answers). `set` overrides fields of the object;
 * a field that does not exist, or a value it cannot take, is an error naming the valid ones, never ignored.
 */

import type { CoreContext } from '../../core/types.js';
import { orderCode, slugify } from '../../seed/catalog.js';
import type { EventRow, OrderRow, ProductRow, ShopRow, Store, Transaction } from '../../store/types.js';
import { halEntity } from '../hal.js';
import { orderDetail, summaryFields as orderSummaryFields } from '../orders.js';
import { productDetail, summaryFields as productSummaryFields } from '../products.js';
import { orderUrl, productUrl } from '../urls.js';
import { recordEvent } from './record.js';

/** The event types a trigger can make. */
export const TRIGGER_TYPES = ['product.created', 'product.updated', 'order.created', 'order.updated'] as const;
/** An event type a trigger can make: what the sandbox writes beyond the API (products, orders). */
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** What to trigger: in which shop, on which object, with which fields changed. */
export interface TriggerOptions {
  /** The shop: its id, subdomain (`northwind`) or name, case-insensitive. */
  shop: string;
  /** For `*.updated`: the product or order id. Default: the shop's most recently updated one. */
  id?: string;
  /**
   * Fields of the created or changed object, as `field → value` (values as text, as the command line gives them:
   * numbers are parsed for numeric fields, `tags` is comma-separated, `price_comparison=null` clears it).
   */
  set?: Readonly<Record<string, string | number | null>>;
}

/** A trigger that cannot be made as asked: a bad type, shop, id, field or value. */
export class TriggerError extends Error {
  override name = 'TriggerError';
}

const PRODUCT_STATUSES = ['visible', 'hidden'] as const;
const ORDER_STATUSES = ['open', 'pending', 'paid', 'shipped', 'closed', 'cancelled'] as const;

type Value = string | number | null;
type Setter<R> = (row: R, value: Value, field: string) => R;

const text =
  <R>(apply: (row: R, value: string) => R): Setter<R> =>
  (row, value, field) => {
    if (value === null || String(value).trim() === '') throw new TriggerError(`${field}: needs a value`);
    return apply(row, String(value));
  };

/** Integer cents ≥ 0; `3.50` is refused (prices are integer cents in this API). */
function cents(value: Value, field: string): number {
  const n = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new TriggerError(`${field}: must be a whole number of cents ≥ 0 (1999 for 19.99), got "${value}"`);
  }
  return n;
}

function oneOf<T extends string>(choices: readonly T[], value: Value, field: string): T {
  if (!(choices as readonly Value[]).includes(value)) {
    throw new TriggerError(`${field}: must be one of ${choices.join(', ')}, got "${value}"`);
  }
  return value as T;
}

const PRODUCT_FIELDS: Record<string, Setter<ProductRow>> = {
  title: text((row, title) => ({ ...row, title })),
  slug: text((row, slug) => ({ ...row, slug })),
  description: (row, value) => ({ ...row, description: value === null ? '' : String(value) }),
  vendor: text((row, vendor) => ({ ...row, vendor })),
  // The first variant carries the product's price, as in the seed.
  price: (row, value, field) => {
    const price = cents(value, field);
    return { ...row, price, variants: row.variants.map((v, i) => (i === 0 ? { ...v, price } : v)) };
  },
  price_comparison: (row, value, field) => ({
    ...row,
    price_comparison: value === null || value === 'null' || value === '' ? null : cents(value, field),
  }),
  status: (row, value, field) => ({ ...row, status: oneOf(PRODUCT_STATUSES, value, field) }),
  tags: (row, value) => ({
    ...row,
    tags: String(value ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean),
  }),
  // The stock a GET shows is the variants' sum: the first variant takes it, the others none.
  stock: (row, value, field) => {
    const stock = cents(value, field);
    return { ...row, variants: row.variants.map((v, i) => ({ ...v, stock: i === 0 ? stock : 0 })) };
  },
};

const ORDER_FIELDS: Record<string, Setter<OrderRow>> = {
  status: (row, value, field) => ({ ...row, status: oneOf(ORDER_STATUSES, value, field) }),
  code: text((row, code) => ({ ...row, code })),
  // An order's total is its lines' sum: the order becomes one line of that amount (its first line's product,
  // quantity 1), so that the total a GET shows is the one asked for; `total=0` is a free order.
  total: (row, value, field) => {
    const total = cents(value, field);
    const first = row.line_items[0];
    if (!first) throw new TriggerError(`${field}: the order has no line to carry the total`);
    return { ...row, line_items: [{ ...first, quantity: 1, unit_price: total }] };
  },
  'contact.name': text((row, name) => ({ ...row, contact: { ...row.contact, name } })),
  'contact.email': text((row, email) => ({ ...row, contact: { ...row.contact, email } })),
  'contact.phone': text((row, phone) => ({ ...row, contact: { ...row.contact, phone } })),
  'address.street': text((row, street) => ({ ...row, address: { ...row.address, street } })),
  'address.city': text((row, city) => ({ ...row, address: { ...row.address, city } })),
  'address.postcode': text((row, postcode) => ({ ...row, address: { ...row.address, postcode } })),
  'address.country': text((row, country) => ({ ...row, address: { ...row.address, country } })),
};

/** The fields `--set` takes for `type`. */
export function settableFields(type: TriggerType): string[] {
  return Object.keys(type.startsWith('product.') ? PRODUCT_FIELDS : ORDER_FIELDS);
}

function applySet<R>(fields: Record<string, Setter<R>>, row: R, set: TriggerOptions['set'], kind: string): R {
  let out = row;
  for (const [field, value] of Object.entries(set ?? {})) {
    const setter = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (!setter) {
      throw new TriggerError(
        `${kind}s have no field "${field}"; the fields you can set: ${Object.keys(fields).join(', ')}`,
      );
    }
    out = setter(out, value, field);
  }
  return out;
}

/** Checks `type` and `set` before anything is opened or written: the command line reports them as usage errors. */
export function checkTrigger(type: string, set: TriggerOptions['set'] = {}): TriggerType {
  if (!(TRIGGER_TYPES as readonly string[]).includes(type)) {
    throw new TriggerError(`no trigger for "${type}"; the types you can trigger: ${TRIGGER_TYPES.join(', ')}`);
  }
  const fields = settableFields(type as TriggerType);
  const unknown = Object.keys(set).filter((field) => !fields.includes(field));
  if (unknown.length > 0) {
    const kind = type.split('.')[0];
    throw new TriggerError(
      `${kind}s have no field ${unknown.map((f) => `"${f}"`).join(', ')}; the fields you can set: ${fields.join(', ')}`,
    );
  }
  return type as TriggerType;
}

/** The shop named by id, subdomain or name (case-insensitive). */
export function findShop(store: Store, name: string): ShopRow {
  const wanted = name.trim().toLowerCase();
  const shops = store.all('shops');
  const shop =
    shops.find((s) => s.id === name.trim()) ??
    shops.find((s) => s.subdomain.toLowerCase() === wanted || s.name.toLowerCase() === wanted);
  if (!shop) {
    const known = shops.map((s) => `${s.subdomain} (id ${s.id})`).join(', ');
    throw new TriggerError(`no shop "${name}"; the shops: ${known || 'none'}`);
  }
  return shop;
}

const nextId = (ids: Iterable<string>) => {
  let max = 0;
  for (const id of ids) if (/^\d+$/.test(id)) max = Math.max(max, Number(id));
  return String(max + 1);
};

/** A pick for order codes: the seed draws from its own generator, a trigger from crypto's. */
const cryptoPick = <T>(items: readonly T[]): T => items[crypto.getRandomValues(new Uint32Array(1))[0]! % items.length]!;

/** The one to change: `id` in the shop, else the shop's most recently updated. */
function target<R extends { id: string; shop_id: string; updated_on: string }>(
  rows: readonly R[],
  shop: ShopRow,
  id: string | undefined,
  kind: string,
): R {
  if (id !== undefined) {
    const row = rows.find((r) => r.id === id);
    if (!row) throw new TriggerError(`no ${kind} ${id} in shop ${shop.subdomain} (id ${shop.id})`);
    return row;
  }
  let newest: R | undefined;
  for (const row of rows) if (!newest || row.updated_on >= newest.updated_on) newest = row;
  if (!newest) throw new TriggerError(`shop ${shop.subdomain} (id ${shop.id}) has no ${kind} to update`);
  return newest;
}

function productEvent(tx: Transaction, context: CoreContext, row: ProductRow, shop: ShopRow, created: boolean) {
  const a = context.addresses;
  const lastModified = Math.max(Date.parse(row.updated_on), Date.parse(shop.updated_on));
  const { etag } = halEntity(a, productDetail(a, row, shop), lastModified);
  return recordEvent(tx, context, {
    type: created ? 'product.created' : 'product.updated',
    shopId: shop.id,
    data: { ...productSummaryFields(row), etag },
    subject: productUrl(a, shop.id, row.id),
  });
}

function orderEvent(tx: Transaction, context: CoreContext, row: OrderRow, created: boolean) {
  const a = context.addresses;
  const { etag } = halEntity(a, orderDetail(a, row), Date.parse(row.updated_on));
  return recordEvent(tx, context, {
    type: created ? 'order.created' : 'order.updated',
    shopId: row.shop_id,
    data: { ...orderSummaryFields(row), etag },
    subject: orderUrl(a, row.shop_id, row.id),
  });
}

/** What a trigger works with, inside its write. */
interface TriggerWrite {
  tx: Transaction;
  context: CoreContext;
  shop: ShopRow;
  options: TriggerOptions;
  /** The write's time, as `updated_on`. */
  now: string;
}

/** What an `*.updated` trigger changes of one of `rows` (`options.id`, or the shop's newest): `options.set`, `now`. */
function changedRow<R extends { id: string; shop_id: string; updated_on: string }>(
  write: TriggerWrite,
  rows: readonly R[],
  fields: Record<string, Setter<R>>,
  kind: string,
) {
  const before = target(rows, write.shop, write.options.id, kind);
  const { id, ...patch } = applySet(fields, { ...before, updated_on: write.now }, write.options.set, kind);
  return { id, patch };
}

function triggerProduct(write: TriggerWrite, created: boolean) {
  const { tx, context, shop, options, now } = write;
  const { store } = context;
  if (!created) {
    const { id, patch } = changedRow(write, store.where('products', 'shop_id', shop.id), PRODUCT_FIELDS, 'product');
    return productEvent(tx, context, tx.update('products', id, patch), shop, false);
  }
  const variantId = nextId(store.all('products').flatMap((p) => p.variants.map((v) => v.id)));
  const title = 'Sandbox Trigger Product';
  // Without its id: the store's sequence hands one out, never that of a deleted row; the slug and SKU follow it.
  const draft: Omit<ProductRow, 'id'> = {
    shop_id: shop.id,
    title,
    slug: '',
    description: `${title}, created by storefront-server trigger.`,
    price: 2500,
    price_comparison: null,
    status: 'visible',
    vendor: shop.name,
    tags: ['new'],
    variants: [{ id: variantId, title: 'Default', sku: '', stock: 10, price: 2500 }],
    created_on: now,
    updated_on: now,
  };
  const set = options.set ?? {};
  const { id: _, ...fields } = applySet(PRODUCT_FIELDS, { ...draft, id: '' }, set, 'product');
  const inserted = tx.insert('products', fields);
  const { id } = inserted;
  const row = tx.update('products', id, {
    slug: Object.hasOwn(set, 'slug') ? inserted.slug : `${slugify(inserted.title)}-${id}`,
    variants: inserted.variants.map((v, k) => ({ ...v, sku: `TRIGGER-${id}-${k + 1}` })),
  });
  return productEvent(tx, context, row, shop, true);
}

function triggerOrder(write: TriggerWrite, created: boolean) {
  const { tx, context, shop, options, now } = write;
  const { store } = context;
  if (!created) {
    const { id, patch } = changedRow(write, store.where('orders', 'shop_id', shop.id), ORDER_FIELDS, 'order');
    return orderEvent(tx, context, tx.update('orders', id, patch), false);
  }
  const products = store.where('products', 'shop_id', shop.id).filter((p) => p.variants.length > 0);
  const product = products.find((p) => p.status === 'visible') ?? products[0];
  if (!product) throw new TriggerError(`shop ${shop.subdomain} (id ${shop.id}) has no product to order`);
  const variant = product.variants[0]!;
  // Without its id: the store's sequence hands one out, never that of a deleted row.
  const draft: Omit<OrderRow, 'id'> = {
    shop_id: shop.id,
    code: orderCode(cryptoPick, new Set(store.all('orders').map((order) => order.code))),
    status: 'open',
    currency_code: shop.currency_code,
    contact: { name: 'Ada Lovelace', email: 'ada.lovelace@example.com' },
    address: { street: '12 St James’s Square', city: 'London', postcode: 'SW1Y 4JH', country: 'GB' },
    line_items: [
      {
        id: nextId(store.all('orders').flatMap((o) => o.line_items.map((item) => item.id))),
        product_id: product.id,
        variant_id: variant.id,
        title: `${product.title} (${variant.title})`,
        quantity: 1,
        unit_price: variant.price,
      },
    ],
    created_on: now,
    updated_on: now,
  };
  const { id: _, ...row } = applySet(ORDER_FIELDS, { ...draft, id: '' }, options.set, 'order');
  return orderEvent(tx, context, tx.insert('orders', row), true);
}

/**
 * Creates or changes the real product or order of `options.shop` that `type` reports, in one write with its
 * event; resolves with the event's row. Rejects with a {@link TriggerError} (nothing written) when the type, shop,
 * id, a field or a value is not one it can take.
 */
export async function triggerEvent(context: CoreContext, type: string, options: TriggerOptions): Promise<EventRow> {
  const checked = checkTrigger(type, options.set);
  await context.store.sync?.();
  const shop = findShop(context.store, options.shop);
  return context.store.write((tx) => {
    const write = { tx, context, shop, options, now: new Date(context.clock.now()).toISOString() };
    const created = checked.endsWith('.created');
    return checked.startsWith('product.') ? triggerProduct(write, created) : triggerOrder(write, created);
  });
}
