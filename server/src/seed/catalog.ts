/** Products and orders of the demo shops, drawn from word lists by the seeded PRNG. */
import type { OrderStatus } from '@storefront-platform/sdk/internal';
import type { LineItemRow, OrderRow, ProductRow, VariantRow } from '../store/types.js';
import type { Random } from './random.js';

/** The words a shop's products are made of. */
export interface Assortment {
  adjectives: readonly string[];
  nouns: readonly string[];
  vendors: readonly string[];
  tags: readonly string[];
  /** Option values a product's variants differ by. */
  options: readonly (readonly string[])[];
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** `Red Mug, large` → `red-mug-large`: the seed's and the trigger's slugs. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A price in cents that ends in 99 or 50, like shops use. */
function price(random: Random, min: number, max: number): number {
  return random.int(min, max) * 100 + (random.chance(0.7) ? 99 : 50) - 100;
}

/** Creates products; ids are handed out by `nextId` so that they are unique across shops. */
export function product(
  random: Random,
  assortment: Assortment,
  shopId: string,
  id: string,
  nextVariantId: () => string,
  now: number,
): ProductRow {
  const title = `${random.pick(assortment.adjectives)} ${random.pick(assortment.nouns)}`;
  const vendor = random.pick(assortment.vendors);
  const base = price(random, 5, 240);
  const options = random.pick(assortment.options);
  const variants: VariantRow[] = random
    .sample(options, random.int(1, Math.min(3, options.length)))
    .map((option, k) => ({
      id: nextVariantId(),
      title: option,
      sku: `${slugify(vendor).slice(0, 4).toUpperCase()}-${id}-${k + 1}`,
      stock: random.chance(0.1) ? 0 : random.int(1, 120),
      price: base + k * 500,
    }));
  const created = now - random.int(30, 365) * DAY - random.int(0, DAY - 1);
  const updated = Math.min(now, created + random.int(0, 60) * DAY + random.int(0, DAY - 1));
  return {
    id,
    shop_id: shopId,
    title,
    slug: `${slugify(title)}-${id}`,
    description: `${title} by ${vendor}. ${random.pick(DESCRIPTIONS)} ${random.pick(CARE)}`,
    price: base,
    price_comparison: random.chance(0.2) ? base + random.int(2, 20) * 100 : null,
    status: random.chance(0.1) ? 'hidden' : 'visible',
    vendor,
    tags: random.sample(assortment.tags, random.int(1, 3)),
    variants,
    created_on: iso(created),
    updated_on: iso(updated),
  };
}

const DESCRIPTIONS = [
  'Made to last and easy to love.',
  'A customer favourite since our first season.',
  'Small-batch quality at an everyday price.',
  'Designed in house and tested by our team.',
  'Responsibly sourced materials throughout.',
];
const CARE = [
  'Ships in recycled packaging.',
  'Backed by a two-year warranty.',
  'Free returns within thirty days.',
  'Care instructions included.',
];
const FIRST = [
  'Ava',
  'Ben',
  'Chloé',
  'Dmitri',
  'Elif',
  'Farah',
  'Gus',
  'Hana',
  'Ivo',
  'Jonas',
  'Kemi',
  'Lena',
  'Marco',
  'Nia',
];
const LAST = ['Andersen', 'Baptiste', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'García', 'Haddad', 'Ito', 'Jansen'];
const STREETS = ['Elm Street', 'Harbour Road', 'Mill Lane', 'Station Avenue', 'Orchard Way', 'Canal Street'];
const CITIES = [
  { city: 'Bristol', country: 'GB' },
  { city: 'Lyon', country: 'FR' },
  { city: 'Leipzig', country: 'DE' },
  { city: 'Utrecht', country: 'NL' },
  { city: 'Porto', country: 'PT' },
];
const STATUSES: readonly OrderStatus[] = [
  'open',
  'pending',
  'paid',
  'paid',
  'shipped',
  'shipped',
  'closed',
  'cancelled',
];
const CODE_ALPHABET = [...'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'];

/** A six-character order code none of `taken` has, drawn with `pick` (the seed's generator, or crypto's). */
export function orderCode(pick: <T>(items: readonly T[]) => T, taken: ReadonlySet<string>): string {
  let code: string;
  do code = Array.from({ length: 6 }, () => pick(CODE_ALPHABET)).join('');
  while (taken.has(code));
  return code;
}

/** An order of products of one shop; `codes` keeps order codes unique. */
export function order(
  random: Random,
  shopId: string,
  currency: string,
  products: readonly ProductRow[],
  id: string,
  nextLineItemId: () => string,
  codes: Set<string>,
  now: number,
): OrderRow {
  const code = orderCode((items) => random.pick(items), codes);
  codes.add(code);
  const line_items: LineItemRow[] = random.sample(products, random.int(1, 4)).map((p) => {
    const variant = random.pick(p.variants);
    return {
      id: nextLineItemId(),
      product_id: p.id,
      variant_id: variant.id,
      title: `${p.title} (${variant.title})`,
      quantity: random.int(1, 3),
      unit_price: variant.price,
    };
  });
  const first = random.pick(FIRST);
  const last = random.pick(LAST);
  const place = random.pick(CITIES);
  const created = now - random.int(0, 120) * DAY - random.int(0, DAY - 1);
  const updated = Math.min(now, created + random.int(0, 10) * DAY);
  return {
    id,
    shop_id: shopId,
    code,
    status: random.pick(STATUSES),
    currency_code: currency,
    contact: {
      name: `${first} ${last}`,
      email: `${slugify(first)}.${slugify(last)}@example.com`,
      ...(random.chance(0.5) ? { phone: `+44 20 7946 ${String(random.int(0, 9999)).padStart(4, '0')}` } : {}),
    },
    address: {
      street: `${random.int(1, 180)} ${random.pick(STREETS)}`,
      city: place.city,
      postcode: String(random.int(10000, 99999)),
      country: place.country,
    },
    line_items,
    created_on: iso(created),
    updated_on: iso(updated),
  };
}
