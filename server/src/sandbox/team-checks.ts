/**
 * What the team's operations take, checked (a `SandboxError` that names the field: 400, or 404 for a shop that
 * does not exist), and their rows as the doors answer them (never a secret or a password hash).
 */
import { findShop, TriggerError } from '../api/events/trigger.js';
import { orderTotal } from '../api/orders.js';
import type { AppKind, AppRow, OrderRow, ProductRow, ShopRow, Store, UserRow } from '../store/types.js';
import { SandboxError } from './sandbox-error.js';
import type { TeamApp, TeamOrder, TeamProduct, TeamShop, TeamUser } from './team-types.js';

/** Input refused: 400. */
export const bad = (message: string) => new SandboxError(message, 400);
/** A login or subdomain taken, or a user who still owns something: 409. */
export const conflict = (message: string) => new SandboxError(message, 409);
/** What the input names does not exist: 404. */
export const missing = (message: string) => new SandboxError(message, 404);

/** `value`, an object (a JSON body's), else a 400. */
export function checkObject(what: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`${what} must be an object`);
  return value as Record<string, unknown>;
}

/** A non-empty line of text of at most `max` characters, trimmed. */
export function line(field: string, value: unknown, max = 200): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max || /[\p{Cc}]/u.test(value)) {
    throw bad(`"${field}" must be text of 1 to ${max} characters on one line, got ${JSON.stringify(value)}`);
  }
  return value.trim();
}

export function optionalLine(field: string, value: unknown, fallback: string, max = 200): string {
  return value === undefined ? fallback : line(field, value, max);
}

export function list(field: string, value: unknown): string[] {
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
export function redirectUri(kind: AppKind, uri: string): string {
  const url = URL.canParse(uri) ? new URL(uri) : undefined;
  const web = url !== undefined && /^https?:$/.test(url.protocol);
  if (!url || uri.includes('#') || (kind !== 'native' && !web) || (web && !url.host)) {
    const allowed = kind === 'native' ? 'an absolute URI' : 'an absolute http(s) URI';
    throw bad(`"redirect_uris": each must be ${allowed} without a fragment, got ${JSON.stringify(uri)}`);
  }
  return uri;
}

export function appView(store: Pick<Store, 'get'>, app: AppRow): TeamApp {
  return {
    id: app.id,
    name: app.name,
    kind: app.kind ?? 'web',
    client_id: app.client_id,
    redirect_uris: [...app.redirect_uris],
    owner: store.get('users', app.owner_id)?.login ?? '',
  };
}

export function userView(store: Pick<Store, 'where'>, user: UserRow): TeamUser {
  return {
    id: user.id,
    login: user.login,
    name: user.name,
    role: user.role,
    shops: store.where('shops', 'owner_id', user.id).map((shop) => shop.subdomain),
  };
}

export function shopView(store: Pick<Store, 'get'>, shop: ShopRow): TeamShop {
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

export function productView(product: ProductRow): TeamProduct {
  const { id, shop_id, title, slug, price, status, created_on, updated_on } = product;
  return { id, shop_id, title, slug, price, status, created_on, updated_on };
}

export function orderView(order: OrderRow): TeamOrder {
  const { id, shop_id, code, status, currency_code, created_on, updated_on } = order;
  return { id, shop_id, code, status, currency_code, total: orderTotal(order), created_on, updated_on };
}

/** The shop `name` names, as a 400 or 404 the control API answers. */
export function shopNamed(store: Store, name: unknown): ShopRow {
  try {
    return findShop(store, line('shop', name));
  } catch (error) {
    if (error instanceof TriggerError) throw missing(error.message);
    throw error;
  }
}
