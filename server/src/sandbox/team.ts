/**
 * Team data: the apps, users, shops, products and orders a team adds to a sandbox and takes out again, so that
 * every developer signs in with an app (client id, secret, redirect URIs) and a user of their own. Written through
 * the store's write path like every write of the core; a product or order created records its event in the same
 * write, as the API would (through `api/events/trigger.ts`). Removing an app or a user revokes its tokens and codes
 * in the same write. Secrets: an app's client secret is answered once, at creation; a password is stored hashed.
 */

import { TriggerError, type TriggerOptions, triggerEvent } from '../api/events/trigger.js';
import { newPreviewKey } from '../api/themes/theme.js';
import type { CoreContext } from '../core/types.js';
import { demoApp } from '../explorer/client.js';
import { hashPasswordAsync, randomSecret, typedSecret } from '../oauth/secrets.js';
import { slugify } from '../seed/catalog.js';
import type { Rgb } from '../seed/images.js';
import { themeTemplates } from '../seed/theme/index.js';
import type { AppKind, Collections, OrderRow, ProductRow, Store, Transaction, UserRow } from '../store/types.js';
import {
  appView,
  bad,
  checkObject,
  conflict,
  line,
  list,
  missing,
  optionalLine,
  orderView,
  productView,
  redirectUri,
  shopNamed,
  shopView,
  userView,
} from './team-checks.js';
import type { SandboxTeam, TeamItemFilter } from './team-types.js';

const APP_KINDS: readonly AppKind[] = ['native', 'web', 'browser'];
const MIN_PASSWORD = 8;
/** The colour of a new shop's theme: the seed's first shop's. */
const ACCENT: Rgb = [32, 96, 160];
const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** An app or a user: what finds it (its id, client id or login) and what names it in tokens, codes and endpoints. */
const ACTORS: {
  [C in 'apps' | 'users']: {
    what: string;
    field: 'app_id' | 'user_id';
    find: (tx: Transaction, key: string) => Collections[C] | undefined;
  };
} = {
  apps: {
    what: 'app',
    field: 'app_id',
    find: (tx, key) => tx.get('apps', key) ?? tx.where('apps', 'client_id', key)[0],
  },
  users: {
    what: 'user',
    field: 'user_id',
    find: (tx, key) => tx.get('users', key) ?? tx.where('users', 'login', key)[0],
  },
};

/** Refuses (409) to remove a user who still owns an app or a shop. */
function assertOwnsNothing(store: Store, user: UserRow): void {
  const apps = store.where('apps', 'owner_id', user.id).map((app) => app.name);
  const shops = store.where('shops', 'owner_id', user.id).map((shop) => shop.subdomain);
  if (apps.length + shops.length > 0) {
    const held = [...apps.map((a) => `app "${a}"`), ...shops.map((s) => `shop ${s}`)].join(', ');
    throw conflict(`User "${user.login}" owns ${held}: remove those or give them to another user first`);
  }
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

  /** Every row of `collection`, as `view` shows it. */
  async function listRows<C extends 'apps' | 'users' | 'shops', V>(
    collection: C,
    view: (store: Store, row: Collections[C]) => V,
  ): Promise<V[]> {
    const store = await current();
    return store.all(collection).map((row) => view(store, row));
  }

  /** Removes, in one write, the row that `find` finds for `id` (a 404 naming `what` when none) with `remove`. */
  async function removeRow<R>(
    id: unknown,
    what: string,
    find: (tx: Transaction, key: string) => R | undefined,
    remove: (tx: Transaction, row: R, store: Store) => void,
  ): Promise<void> {
    const store = await current();
    const key = line('id', id);
    await store.write((tx) => {
      const row = find(tx, key);
      if (!row) throw missing(`No ${what} ${key}`);
      remove(tx, row, store);
    });
  }

  /** Removes the app or user `id` (or its client id, login) with its tokens, codes and webhook endpoints. */
  function removeActor<C extends 'apps' | 'users'>(
    collection: C,
    id: unknown,
    refuse: (store: Store, row: Collections[C]) => void = () => undefined,
  ): Promise<void> {
    const { what, field, find } = ACTORS[collection];
    return removeRow(id, what, find, (tx, row, store) => {
      refuse(store, row);
      for (const token of store.where('tokens', field, row.id)) tx.delete('tokens', token.id);
      for (const code of store.where('codes', field, row.id)) tx.delete('codes', code.id);
      for (const endpoint of store.all('webhook_endpoints')) {
        if (endpoint[field] === row.id) tx.delete('webhook_endpoints', endpoint.id);
      }
      tx.delete(collection, row.id);
    });
  }

  /** Products or orders: created as the API creates them (with their event), listed (of one shop), removed. */
  function items<R extends ProductRow | OrderRow, V>(kind: 'product' | 'order', view: (row: R) => V) {
    const collection = kind === 'product' ? 'products' : 'orders';
    return {
      async add(input: unknown): Promise<V> {
        const id = await addItem(kind, input);
        return view(context().store.get(collection, id) as R);
      },
      async list(filter?: TeamItemFilter): Promise<V[]> {
        const store = await current();
        const shop = filter?.shop === undefined ? undefined : shopNamed(store, filter.shop);
        const rows = shop ? store.where(collection, 'shop_id', shop.id) : store.all(collection);
        return (rows as readonly R[]).map(view);
      },
      remove: (id: unknown) =>
        removeRow(
          id,
          kind,
          (tx, key) => tx.get(collection, key),
          (tx, row) => tx.delete(collection, row.id),
        ),
    };
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
      list: () => listRows('apps', appView),
      remove: (id) => removeActor('apps', id),
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
      list: () => listRows('users', userView),
      remove: (id) => removeActor('users', id, assertOwnsNothing),
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
      list: () => listRows('shops', shopView),
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

    products: items('product', productView),
    orders: items('order', orderView),
  };
}
