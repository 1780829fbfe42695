/**
 * Team data: the apps, users, shops, products and orders a team adds to a sandbox and takes out again, so that
 * every developer signs in with an app (client id, secret, redirect URIs) and a user of their own. Written through
 * the store's write path like every write of the core; a product or order created records its event in the same
 * write, as the API would (through `api/events/trigger.ts`). Removing an app or a user revokes its tokens and codes
 * in the same write. Secrets: an app's client secret is answered once, at creation; a password is stored hashed.
 */

import { findShop, TriggerError, type TriggerOptions, triggerEvent } from '../api/events/trigger.js';
import { newPreviewKey } from '../api/themes/theme.js';
import type { CoreContext } from '../core/types.js';
import { demoApp } from '../explorer/client.js';
import { hashPasswordAsync, randomSecret, typedSecret } from '../oauth/secrets.js';
import { slugify } from '../seed/catalog.js';
import type { Rgb } from '../seed/images.js';
import { themeTemplates } from '../seed/theme/index.js';
import type { AppKind, AppRow, OrderRow, ProductRow, ShopRow, Store, Transaction, UserRow } from '../store/types.js';
import { SandboxError } from './sandbox-error.js';

/** An app as listed: everything but its secret. */
export interface TeamApp {
  id: string;
  name: string;
  kind: AppKind;
  client_id: string;
  redirect_uris: string[];
  /** The login of the user its client-credentials tokens act as. */
  owner: string;
}

/** An app just created: its client secret is told this once. */
export interface CreatedTeamApp extends TeamApp {
  client_secret: string;
}

/** What {@link SandboxTeam.apps}`.add` takes. */
export interface TeamAppInput {
  name: string;
  /** Default `web`: a server-side app that keeps its secret, whose redirect URIs match exactly. */
  kind?: AppKind;
  /** Absolute URIs without a fragment; http(s) for `web` and `browser`. Default none (no code flow). */
  redirect_uris?: readonly string[];
  /** Login of the user its client-credentials tokens act as. Default: the demo app's owner. */
  owner?: string;
}

/** A user as listed: never the password or its hash. */
export interface TeamUser {
  id: string;
  login: string;
  name: string;
  role: string;
  /** Subdomains of the shops the user administers (owns). */
  shops: string[];
}

/** What {@link SandboxTeam.users}`.add` takes. */
export interface TeamUserInput {
  login: string;
  /** At least 8 characters; stored as an scrypt hash, as the seed stores the demo user's. */
  password: string;
  /** Default: the login. */
  name?: string;
  /**
   * Shops (id, subdomain or name) the user is to administer. A shop has one administrator, its owner (spec §1):
   * the user takes these over from their owner.
   */
  shops?: readonly string[];
}

/** A shop as listed. */
export interface TeamShop {
  id: string;
  name: string;
  subdomain: string;
  /** Login of the user who administers it. */
  owner: string;
  public: boolean;
  locale: string;
  currency_code: string;
}

/** What {@link SandboxTeam.shops}`.add` takes. */
export interface TeamShopInput {
  name: string;
  /** Login of the user who administers it. */
  owner: string;
  /** Default: from the name (`Acme Tools` → `acme-tools`). */
  subdomain?: string;
  description?: string;
  /** Default `en-GB`. */
  locale?: string;
  /** ISO 4217, default `GBP`. */
  currency_code?: string;
  /** Listed to every token. Default false. */
  public?: boolean;
}

/**
 * What {@link SandboxTeam.products}`.add` and `orders.add` take: the shop, and the fields `storefront-server
 * trigger --set` takes (`title`, `price` in cents, `status`…; orders: `status`, `total`, `contact.email`…).
 * Every other field has the default a triggered product or order has.
 */
export interface TeamItemInput {
  /** The shop: its id, subdomain or name. */
  shop: string;
  [field: string]: string | number | null;
}

/** A product as listed. */
export type TeamProduct = Pick<
  ProductRow,
  'id' | 'shop_id' | 'title' | 'slug' | 'price' | 'status' | 'created_on' | 'updated_on'
>;
/** An order as listed. */
export type TeamOrder = Pick<
  OrderRow,
  'id' | 'shop_id' | 'code' | 'status' | 'currency_code' | 'created_on' | 'updated_on'
> & {
  /** Cents. */
  total: number;
};

/** Which rows a list shows. */
export interface TeamItemFilter {
  /** Only this shop's (id, subdomain or name). */
  shop?: string;
}

/** The team's data in a sandbox, kind by kind: created, listed, removed. A refused one rejects with a `SandboxError`. */
export interface SandboxTeam {
  /** OAuth apps: each developer's client id, secret and redirect URIs. */
  apps: {
    add(app: TeamAppInput): Promise<CreatedTeamApp>;
    list(): Promise<TeamApp[]>;
    /** Removes the app (by id or client id) with its tokens, codes and webhook endpoints. */
    remove(id: string): Promise<void>;
  };
  /** People who sign in (password grant, the authorization page). */
  users: {
    add(user: TeamUserInput): Promise<TeamUser>;
    list(): Promise<TeamUser[]>;
    /** Removes the user (by id or login) with their tokens and codes; refused (409) while they own an app or shop. */
    remove(id: string): Promise<void>;
  };
  shops: {
    /** A shop with a production theme of the seed's templates. */
    add(shop: TeamShopInput): Promise<TeamShop>;
    list(): Promise<TeamShop[]>;
    /** Removes the shop (by id or subdomain) with its products, orders and themes. */
    remove(id: string): Promise<void>;
  };
  products: {
    /** Creates a product with its `product.created` event. */
    add(product: TeamItemInput): Promise<TeamProduct>;
    list(filter?: TeamItemFilter): Promise<TeamProduct[]>;
    remove(id: string): Promise<void>;
  };
  orders: {
    /** Creates an order (of one line: the shop's first visible product) with its `order.created` event. */
    add(order: TeamItemInput): Promise<TeamOrder>;
    list(filter?: TeamItemFilter): Promise<TeamOrder[]>;
    remove(id: string): Promise<void>;
  };
}

const APP_KINDS: readonly AppKind[] = ['native', 'web', 'browser'];
const MIN_PASSWORD = 8;
/** The colour of a new shop's theme: the seed's first shop's. */
const ACCENT: Rgb = [32, 96, 160];
const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const bad = (message: string) => new SandboxError(message, 400);
const conflict = (message: string) => new SandboxError(message, 409);
const missing = (message: string) => new SandboxError(message, 404);

function checkObject(what: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`${what} must be an object`);
  return value as Record<string, unknown>;
}

/** A non-empty line of text of at most `max` characters, trimmed. */
function line(field: string, value: unknown, max = 200): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max || /[\p{Cc}]/u.test(value)) {
    throw bad(`"${field}" must be text of 1 to ${max} characters on one line, got ${JSON.stringify(value)}`);
  }
  return value.trim();
}

function optionalLine(field: string, value: unknown, fallback: string, max = 200): string {
  return value === undefined ? fallback : line(field, value, max);
}

function list(field: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw bad(`"${field}" must be a list of strings, got ${JSON.stringify(value)}`);
  }
  return value as string[];
}

/**
 * A redirect URI an app of `kind` may register: absolute, no fragment (RFC 6749 §3.1.2); http(s) for a web app
 * or a page, while a native app may also use a private-use scheme (`com.example.app:/callback`, RFC 8252 §7.1).
 */
function redirectUri(kind: AppKind, uri: string): string {
  const url = URL.canParse(uri) ? new URL(uri) : undefined;
  const web = url !== undefined && /^https?:$/.test(url.protocol);
  if (!url || uri.includes('#') || (kind !== 'native' && !web) || (web && !url.host)) {
    const allowed = kind === 'native' ? 'an absolute URI' : 'an absolute http(s) URI';
    throw bad(`"redirect_uris": each must be ${allowed} without a fragment, got ${JSON.stringify(uri)}`);
  }
  return uri;
}

function appView(store: Pick<Store, 'get'>, app: AppRow): TeamApp {
  return {
    id: app.id,
    name: app.name,
    kind: app.kind ?? 'web',
    client_id: app.client_id,
    redirect_uris: [...app.redirect_uris],
    owner: store.get('users', app.owner_id)?.login ?? '',
  };
}

function userView(store: Pick<Store, 'where'>, user: UserRow): TeamUser {
  return {
    id: user.id,
    login: user.login,
    name: user.name,
    role: user.role,
    shops: store.where('shops', 'owner_id', user.id).map((shop) => shop.subdomain),
  };
}

function shopView(store: Pick<Store, 'get'>, shop: ShopRow): TeamShop {
  return {
    id: shop.id,
    name: shop.name,
    subdomain: shop.subdomain,
    owner: store.get('users', shop.owner_id)?.login ?? '',
    public: shop.public,
    locale: shop.locale,
    currency_code: shop.currency_code,
  };
}

const productView = ({ id, shop_id, title, slug, price, status, created_on, updated_on }: ProductRow): TeamProduct => ({
  id,
  shop_id,
  title,
  slug,
  price,
  status,
  created_on,
  updated_on,
});

function orderView(order: OrderRow): TeamOrder {
  const { id, shop_id, code, status, currency_code, created_on, updated_on } = order;
  const total = order.line_items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0);
  return { id, shop_id, code, status, currency_code, total, created_on, updated_on };
}

/** The shop `name` names, as a 400 or 404 the control API answers. */
function shopNamed(store: Store, name: unknown): ShopRow {
  try {
    return findShop(store, line('shop', name));
  } catch (error) {
    if (error instanceof TriggerError) throw missing(error.message);
    throw error;
  }
}

/** Revokes, in `tx`, what lets `which` act: its tokens and authorization codes. */
function revoke(tx: Transaction, store: Store, field: 'app_id' | 'user_id', id: string): void {
  for (const token of store.where('tokens', field, id)) tx.delete('tokens', token.id);
  for (const code of store.where('codes', field, id)) tx.delete('codes', code.id);
}

/** The team data of the core `context()` gives (the mock's changes at each reset: a getter). */
export function createTeam(context: () => CoreContext): SandboxTeam {
  /** The store, caught up with the other processes on a shared one. */
  const current = async () => {
    const { store } = context();
    await store.sync?.();
    return store;
  };
  const now = () => new Date(context().clock.now()).toISOString();

  async function addItem(kind: 'product' | 'order', input: unknown) {
    const { shop, ...set } = checkObject(`The ${kind}`, input);
    for (const [field, value] of Object.entries(set)) {
      if (value !== null && typeof value !== 'string' && typeof value !== 'number') {
        throw bad(`"${field}" must be text or a number, got ${JSON.stringify(value)}`);
      }
    }
    const options: TriggerOptions = { shop: line('shop', shop), set: set as TriggerOptions['set'] };
    try {
      const event = await triggerEvent(context(), `${kind}.created`, options);
      return (event.data as { id: string }).id;
    } catch (error) {
      if (error instanceof TriggerError) {
        // The trigger speaks of the command line's `--set`: the control API takes the fields themselves.
        const message = error.message.replace(/--set /g, '');
        throw error.message.startsWith('no shop') ? missing(message) : bad(message);
      }
      throw error;
    }
  }

  async function listItems<R extends ProductRow | OrderRow>(
    collection: 'products' | 'orders',
    filter: TeamItemFilter | undefined,
  ): Promise<readonly R[]> {
    const store = await current();
    const shop = filter?.shop === undefined ? undefined : shopNamed(store, filter.shop);
    return (shop ? store.where(collection, 'shop_id', shop.id) : store.all(collection)) as readonly R[];
  }

  async function removeItem(collection: 'products' | 'orders', id: unknown) {
    const store = await current();
    const key = line('id', id);
    await store.write((tx) => {
      if (!tx.get(collection, key)) throw missing(`No ${collection.slice(0, -1)} ${key}`);
      tx.delete(collection, key);
    });
  }

  return {
    apps: {
      async add(input) {
        const given = checkObject('The app', input);
        const name = line('name', given.name);
        const kind = (given.kind ?? 'web') as AppKind;
        if (!APP_KINDS.includes(kind))
          throw bad(`"kind" must be one of ${APP_KINDS.join(', ')}, got ${JSON.stringify(given.kind)}`);
        const uris = [...new Set(list('redirect_uris', given.redirect_uris).map((uri) => redirectUri(kind, uri)))];
        const store = await current();
        const ownerLogin = given.owner === undefined ? undefined : line('owner', given.owner);
        const clientSecret = typedSecret(32);
        const row = await store.write((tx) => {
          const owner =
            ownerLogin === undefined
              ? tx.get('users', demoApp(store)?.owner_id ?? '')
              : tx.where('users', 'login', ownerLogin)[0];
          if (!owner) {
            throw ownerLogin === undefined
              ? bad('"owner" is needed: the data has no demo user to own the app')
              : missing(`No user "${ownerLogin}" to own the app`);
          }
          return tx.insert('apps', {
            name,
            client_id: `app-${randomSecret(12)}`,
            client_secret: clientSecret,
            redirect_uris: uris,
            kind,
            owner_id: owner.id,
          });
        });
        return { ...appView(store, row), client_secret: clientSecret };
      },
      async list() {
        const store = await current();
        return store.all('apps').map((app) => appView(store, app));
      },
      async remove(id) {
        const store = await current();
        const key = line('id', id);
        await store.write((tx) => {
          const app = tx.get('apps', key) ?? tx.where('apps', 'client_id', key)[0];
          if (!app) throw missing(`No app ${key}`);
          revoke(tx, store, 'app_id', app.id);
          for (const endpoint of store.all('webhook_endpoints')) {
            if (endpoint.app_id === app.id) tx.delete('webhook_endpoints', endpoint.id);
          }
          tx.delete('apps', app.id);
        });
      },
    },

    users: {
      async add(input) {
        const given = checkObject('The user', input);
        const login = line('login', given.login, 64);
        if (/\s/.test(login)) throw bad(`"login" must have no spaces, got ${JSON.stringify(login)}`);
        const password = given.password;
        if (typeof password !== 'string' || password.length < MIN_PASSWORD || password.length > 1024) {
          throw bad(`"password" must be text of ${MIN_PASSWORD} to 1024 characters`);
        }
        const name = optionalLine('name', given.name, login);
        const store = await current();
        const shops = list('shops', given.shops).map((shop) => shopNamed(store, shop));
        // Hashed outside the write, so that scrypt holds neither the write queue nor the event loop.
        const hash = await hashPasswordAsync(password);
        const stamp = now();
        const row = await store.write((tx) => {
          if (tx.where('users', 'login', login).length > 0) throw conflict(`A user "${login}" exists already`);
          const user = tx.insert('users', { login, name, password_hash: hash, role: 'admin' });
          for (const shop of shops) tx.update('shops', shop.id, { owner_id: user.id, updated_on: stamp });
          return user;
        });
        return userView(store, row);
      },
      async list() {
        const store = await current();
        return store.all('users').map((user) => userView(store, user));
      },
      async remove(id) {
        const store = await current();
        const key = line('id', id);
        await store.write((tx) => {
          const user = tx.get('users', key) ?? tx.where('users', 'login', key)[0];
          if (!user) throw missing(`No user ${key}`);
          const apps = store.where('apps', 'owner_id', user.id).map((app) => app.name);
          const shops = store.where('shops', 'owner_id', user.id).map((shop) => shop.subdomain);
          if (apps.length + shops.length > 0) {
            const held = [...apps.map((a) => `app "${a}"`), ...shops.map((s) => `shop ${s}`)].join(', ');
            throw conflict(`User "${user.login}" owns ${held}: remove those or give them to another user first`);
          }
          revoke(tx, store, 'user_id', user.id);
          for (const endpoint of store.all('webhook_endpoints')) {
            if (endpoint.user_id === user.id) tx.delete('webhook_endpoints', endpoint.id);
          }
          tx.delete('users', user.id);
        });
      },
    },

    shops: {
      async add(input) {
        const given = checkObject('The shop', input);
        const name = line('name', given.name);
        const ownerLogin = line('owner', given.owner, 64);
        const subdomain = given.subdomain === undefined ? slugify(name) : line('subdomain', given.subdomain, 63);
        if (!SUBDOMAIN.test(subdomain)) {
          throw bad(
            `"subdomain" must be 1 to 63 lower-case letters, digits and inner "-", got ${JSON.stringify(subdomain)}`,
          );
        }
        const description = given.description === undefined ? `${name}.` : line('description', given.description, 2000);
        const locale = optionalLine('locale', given.locale, 'en-GB', 35);
        const currency = optionalLine('currency_code', given.currency_code, 'GBP', 20);
        if (!/^[A-Z]{3}$/.test(currency))
          throw bad(`"currency_code" must be an ISO 4217 code (GBP), got "${currency}"`);
        if (given.public !== undefined && typeof given.public !== 'boolean')
          throw bad('"public" must be true or false');
        const store = await current();
        const stamp = now();
        const row = await store.write((tx) => {
          const owner = tx.where('users', 'login', ownerLogin)[0];
          if (!owner) throw missing(`No user "${ownerLogin}" to administer the shop`);
          if (store.all('shops').some((shop) => shop.subdomain === subdomain)) {
            throw conflict(`A shop with subdomain "${subdomain}" exists already`);
          }
          const shop = tx.insert('shops', {
            owner_id: owner.id,
            name,
            subdomain,
            description,
            locale,
            currency_code: currency,
            public: given.public === true,
            created_on: stamp,
            updated_on: stamp,
          });
          const theme = tx.insert('themes', {
            shop_id: shop.id,
            title: `${name} Classic`,
            production: true,
            settings: { accent_color: `rgb(${ACCENT.join(', ')})`, show_banner: true, products_per_page: 24 },
            preview_key: newPreviewKey(),
            created_on: stamp,
            updated_on: stamp,
          });
          for (const file of themeTemplates({ name, description, locale, currency_code: currency, accent: ACCENT })) {
            tx.insert('templates', { theme_id: theme.id, ...file, created_on: stamp, updated_on: stamp });
          }
          return shop;
        });
        return shopView(store, row);
      },
      async list() {
        const store = await current();
        return store.all('shops').map((shop) => shopView(store, shop));
      },
      async remove(id) {
        const store = await current();
        const shop = shopNamed(store, id);
        await store.write((tx) => {
          for (const product of store.where('products', 'shop_id', shop.id)) tx.delete('products', product.id);
          for (const order of store.where('orders', 'shop_id', shop.id)) tx.delete('orders', order.id);
          for (const theme of store.where('themes', 'shop_id', shop.id)) {
            for (const template of store.where('templates', 'theme_id', theme.id)) tx.delete('templates', template.id);
            for (const asset of store.where('assets', 'theme_id', theme.id)) {
              tx.delete('assets', asset.id);
              if (store.get('files', asset.id)) tx.delete('files', asset.id);
            }
            tx.delete('themes', theme.id);
          }
          tx.delete('shops', shop.id);
        });
      },
    },

    products: {
      async add(input) {
        const id = await addItem('product', input);
        return productView(context().store.get('products', id)!);
      },
      list: async (filter) => (await listItems<ProductRow>('products', filter)).map(productView),
      remove: (id) => removeItem('products', id),
    },

    orders: {
      async add(input) {
        const id = await addItem('order', input);
        return orderView(context().store.get('orders', id)!);
      },
      list: async (filter) => (await listItems<OrderRow>('orders', filter)).map(orderView),
      remove: (id) => removeItem('orders', id),
    },
  };
}
