/**
 * Who may see what. A token's scopes decide which endpoints it may call (`admin` implies `public`);
 * shops decide the rest: a public shop is visible to every token, a non-public one only to its owner's admin
 * tokens (a `public` token sees public shops only, whoever the user is: wire contract), and so is the
 * administration of a shop (theme, orders, hidden products). A shop the caller may not see is a 404, never a
 * 403, so that nobody learns which shops exist. Every route decides through these functions.
 */
import type { Scope } from '@storefront-platform/sdk/internal';
import type { Principal } from '../core/types.js';
import { notFound } from '../http/http-error.js';
import type { Call } from '../http/route.js';
import type { Collections, ShopRow } from '../store/types.js';

/** Whether the token carries `scope` (`admin` implies `public`). */
export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.includes(scope) || (scope === 'public' && principal.scopes.includes('admin'));
}

/** Whether the caller administers `shop` with this token. */
export function administers(principal: Principal, shop: ShopRow): boolean {
  return shop.owner_id === principal.userId && principal.scopes.includes('admin');
}

/** Whether the caller may see `shop` at all. */
export function canSee(principal: Principal, shop: ShopRow): boolean {
  return shop.public || administers(principal, shop);
}

/** The shop `id` if the caller may see it, else 404. */
export function visibleShop(call: Call, id: string): ShopRow {
  const shop = call.context.store.get('shops', id);
  if (!shop || !canSee(call.principal, shop)) throw notFound(`No shop ${id}`);
  return shop;
}

/** The shop `id` if the caller administers it with this token, else 404. */
export function administeredShop(call: Call, id: string): ShopRow {
  const shop = call.context.store.get('shops', id);
  if (!shop || !administers(call.principal, shop)) throw notFound(`No shop ${id}`);
  return shop;
}

/**
 * The row `call.params.id` of `collection` if it is one of `shop`'s and `shown` to the caller, else 404: another
 * shop's row is answered as no row, so that an id tells nothing about shops the path does not name.
 */
export function shopRow<C extends 'orders' | 'products'>(
  call: Call,
  collection: C,
  shop: ShopRow,
  shown: (row: Collections[C]) => boolean = () => true,
): Collections[C] {
  const id = call.params.id!;
  const row = call.context.store.get(collection, id);
  if (!row || row.shop_id !== shop.id || !shown(row)) {
    throw notFound(`No ${collection.slice(0, -1)} ${id} in shop ${shop.id}`);
  }
  return row;
}

/** The shops the caller owns and may see with this token (the root's, the orders' candidates). */
export function ownShops(call: Call): readonly ShopRow[] {
  return call.context.store
    .where('shops', 'owner_id', call.principal.userId)
    .filter((shop) => canSee(call.principal, shop));
}
