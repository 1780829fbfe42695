/**
 * The deterministic demo data set: the same options give the same rows (secrets excepted, which are
 * random unless given). Platform-neutral: the MSW entry seeds its in-memory store with it in browsers.
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import { encodeBase64 } from '@storefront-platform/sdk/internal';
import { newPreviewKey } from '../api/themes/theme.js';
import { typedSecret } from '../oauth/secrets.js';
import { md5Hex } from '../shared/md5.js';
import { emptyDataset } from '../store/collections.js';
import type { AppRow, Dataset, ProductRow, ShopRow, UserRow } from '../store/types.js';
import { type Assortment, order, product } from './catalog.js';
import { DEFAULT_PRODUCTS } from './default-products.js';
import { lazyFields, memo } from './lazy.js';
import { seedPasswordHash } from './password-hash.js';
import { Random } from './random.js';
import { type ThemeShop, themeImages, themeTemplates } from './theme/index.js';

/** How to seed. Every field is optional. */
export interface SeedOptions {
  /** PRNG seed; another number gives other (equally deterministic) data. Default 1. */
  seed?: number;
  /** Products in all, spread over the three shops. Default 300. */
  products?: number;
  /** Orders in all, over the shops that have products. Default 60. */
  orders?: number;
  /** The instant the data was "taken", epoch ms: timestamps lie in the year before it. Default 2026-01-01. */
  now?: number;
  /** Demo app client id. Default: derived from `seed`. */
  clientId?: string;
  /** Demo app client secret. Default: 32 random bytes, base64url. */
  clientSecret?: string;
  /** Demo user login. Default `demo`. */
  login?: string;
  /** Demo user password. Default: random. */
  password?: string;
  /** Redirect URIs registered for the demo app. Default: `/callback` on `localhost` and `127.0.0.1`, port 8080. */
  redirectUris?: string[];
}

/** The demo app's redirect URIs unless {@link SeedOptions.redirectUris} gives others. */
export const DEMO_REDIRECT_URIS: readonly string[] = [
  'http://localhost:8080/callback',
  'http://127.0.0.1:8080/callback',
];

/** What a client needs to use the demo data. The password and secret exist nowhere else in clear. */
export interface DemoCredentials {
  clientId: string;
  clientSecret: string;
  login: string;
  password: string;
  redirectUris: string[];
}

/** What {@link seed} returns: the data set and the demo credentials to print or use in tests. */
export interface SeededData {
  dataset: Dataset;
  credentials: DemoCredentials;
}

const DEFAULT_ORDERS = 60;
const DEFAULT_NOW = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

interface ShopPlan extends ThemeShop {
  subdomain: string;
  owner: 'demo' | 'other';
  public: boolean;
  assortment: Assortment;
}

const SHOPS: readonly ShopPlan[] = [
  {
    name: 'Northwind Outfitters',
    subdomain: 'northwind',
    description: 'Outdoor clothing and gear for every season.',
    locale: 'en-GB',
    currency_code: 'GBP',
    accent: [32, 96, 160],
    owner: 'demo',
    public: true,
    assortment: {
      adjectives: [
        'Alpine',
        'Storm',
        'Trail',
        'Summit',
        'Coastal',
        'Merino',
        'Ridge',
        'Featherlight',
        'Waxed',
        'Thermal',
      ],
      nouns: [
        'Jacket',
        'Fleece',
        'Beanie',
        'Rucksack',
        'Hiking Boots',
        'Gloves',
        'Base Layer',
        'Shell Trousers',
        'Gaiters',
      ],
      vendors: ['Northwind', 'Fjellrev', 'Cairn & Co', 'Highline'],
      tags: ['outdoor', 'waterproof', 'winter', 'summer', 'hiking', 'sale', 'new', 'bestseller'],
      options: [
        ['XS', 'S', 'M', 'L', 'XL'],
        ['Moss', 'Slate', 'Rust', 'Navy'],
        ['28 L', '35 L', '45 L'],
      ],
    },
  },
  {
    name: 'Copper Kettle Kitchen',
    subdomain: 'copper-kettle',
    description: 'Cookware, tableware and pantry goods for keen home cooks.',
    locale: 'fr-FR',
    currency_code: 'EUR',
    accent: [176, 88, 40],
    owner: 'demo',
    public: false,
    assortment: {
      adjectives: ['Cast-Iron', 'Copper', 'Enamel', 'Stoneware', 'Oak', 'Carbon-Steel', 'Glazed', 'Hand-Thrown'],
      nouns: ['Skillet', 'Dutch Oven', 'Saucepan', 'Chef Knife', 'Serving Bowl', 'Teapot', 'Cutting Board', 'Mug'],
      vendors: ['Copper Kettle', 'Maison Fer', 'Atelier Grès', 'Holzwerk'],
      tags: ['cookware', 'tableware', 'gift', 'handmade', 'sale', 'new', 'dishwasher-safe'],
      options: [
        ['20 cm', '24 cm', '28 cm'],
        ['Ivory', 'Charcoal', 'Sage'],
        ['Single', 'Set of 2', 'Set of 4'],
      ],
    },
  },
  {
    name: 'Juniper & Fig Market',
    subdomain: 'juniper-fig',
    description: 'Home goods and small-batch treats from independent makers.',
    locale: 'en-US',
    currency_code: 'USD',
    accent: [80, 128, 72],
    owner: 'other',
    public: true,
    assortment: {
      adjectives: ['Linen', 'Beeswax', 'Wildflower', 'Smoked', 'Woven', 'Ceramic', 'Botanical', 'Rustic'],
      nouns: ['Candle', 'Throw', 'Honey', 'Tea Towel', 'Planter', 'Soap Bar', 'Basket', 'Notebook'],
      vendors: ['Juniper & Fig', 'Meadow Makers', 'Little Hive', 'Loom House'],
      tags: ['home', 'gift', 'organic', 'local', 'sale', 'new', 'limited'],
      options: [
        ['Small', 'Medium', 'Large'],
        ['Lavender', 'Cedar', 'Citrus'],
        ['Natural', 'Indigo', 'Clay'],
      ],
    },
  },
];

function count(value: number | undefined, fallback: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  return n;
}

/**
 * The demo user (id 1, an admin) and the demo app (id 1, theirs) of `credentials`, the password hashed with
 * `salt`: the seed's, and an imported data set's.
 */
export function demoAccessRows(credentials: DemoCredentials, salt: Uint8Array): { user: UserRow; app: AppRow } {
  return {
    user: {
      id: '1',
      login: credentials.login,
      name: 'Dana Demo',
      password_hash: seedPasswordHash(credentials.password, salt),
      role: 'admin',
    },
    app: {
      id: '1',
      name: 'Storefront demo app',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      redirect_uris: credentials.redirectUris,
      // The app the themes CLI signs in with, on a loopback port of its own choosing.
      kind: 'native',
      owner_id: '1',
    },
  };
}

/**
 * Builds the demo data set: a demo app and user who administers two shops, a third public shop of
 * another user, products, orders, and a production theme per shop with templates and image assets.
 * Hashes the one password (~80 ms, unless precomputed or hashed before in this process: see
 * `seedPasswordHash`); 100 000 products take well under a second.
 */
export function seed(options: SeedOptions = {}): SeededData {
  const random = new Random(options.seed ?? 1);
  const products = count(options.products, DEFAULT_PRODUCTS, 'products');
  const orders = count(options.orders, DEFAULT_ORDERS, 'orders');
  const now = options.now ?? DEFAULT_NOW;
  const iso = (ms: number) => new Date(ms).toISOString();
  const data = emptyDataset();

  // Drawn whether used or not: a client id given (`--demo-client-id`) must not re-draw the catalogue after it.
  const drawnClientId = `demo-${bytesToHex(random.bytes(8))}`;
  const credentials: DemoCredentials = {
    clientId: options.clientId ?? drawnClientId,
    clientSecret: options.clientSecret ?? typedSecret(32),
    login: options.login ?? 'demo',
    password: options.password ?? typedSecret(12),
    redirectUris: options.redirectUris ?? [...DEMO_REDIRECT_URIS],
  };
  const demo = demoAccessRows(credentials, random.bytes(16));
  data.users.push(
    demo.user,
    // Cannot log in: no password hash verifies against this value.
    { id: '2', login: 'juniper', name: 'June Fig', password_hash: 'disabled', role: 'merchant' },
  );
  data.apps.push(demo.app);

  const shops: ShopRow[] = SHOPS.map((plan, i) => {
    const created = now - (400 - i * 20) * DAY;
    return {
      id: String(i + 1),
      owner_id: plan.owner === 'demo' ? '1' : '2',
      name: plan.name,
      subdomain: plan.subdomain,
      description: plan.description,
      locale: plan.locale,
      currency_code: plan.currency_code,
      public: plan.public,
      created_on: iso(created),
      updated_on: iso(created + 30 * DAY),
    };
  });
  data.shops.push(...shops);

  let variantId = 0;
  const nextVariantId = () => String(++variantId);
  const byShop: ProductRow[][] = shops.map(() => []);
  for (let i = 0; i < products; i++) {
    const s = i % shops.length;
    const row = product(random, SHOPS[s]!.assortment, shops[s]!.id, String(i + 1), nextVariantId, now);
    data.products.push(row);
    byShop[s]!.push(row);
  }

  let lineItemId = 0;
  const nextLineItemId = () => String(++lineItemId);
  const codes = new Set<string>();
  const selling = shops.map((shop, s) => ({ shop, products: byShop[s]! })).filter((s) => s.products.length > 0);
  for (let i = 0; i < orders && selling.length > 0; i++) {
    const { shop, products: stock } = selling[i % selling.length]!;
    data.orders.push(order(random, shop.id, shop.currency_code, stock, String(i + 1), nextLineItemId, codes, now));
  }

  for (const [s, shop] of shops.entries()) {
    const plan = SHOPS[s]!;
    const stamp = iso(now - (200 - s * 10) * DAY);
    const theme_id = String(s + 1);
    data.themes.push({
      id: theme_id,
      shop_id: shop.id,
      title: `${plan.name.split(' ')[0]} Classic`,
      production: true,
      settings: { accent_color: `rgb(${plan.accent.join(', ')})`, show_banner: true, products_per_page: 24 },
      // Not from the seed's generator: a preview address must not be predictable from the seed.
      preview_key: newPreviewKey(),
      created_on: stamp,
      updated_on: stamp,
    });
    for (const file of themeTemplates(plan)) {
      data.templates.push({
        id: String(data.templates.length + 1),
        theme_id,
        ...file,
        created_on: stamp,
        updated_on: stamp,
      });
    }
    for (const image of themeImages(plan)) {
      const id = String(data.assets.length + 1);
      // Drawing and hashing the images is most of what a seed costs, and a mock's test rarely reads them: the
      // rows compute their bytes, digest and size when first read (a data file is written from them at once).
      const bytes = memo(image.draw);
      const asset = {
        id,
        theme_id,
        file_name: image.file_name,
        content_type: image.content_type,
        created_on: stamp,
        updated_on: stamp,
      };
      data.assets.push(lazyFields(asset, { digest: () => md5Hex(bytes()), file_size: () => bytes().length }));
      data.files.push(lazyFields({ id }, { data: () => encodeBase64(bytes()) }));
    }
  }
  return { dataset: data, credentials };
}
