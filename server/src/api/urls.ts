/** Where the root, shop, product and order resources live (wire contract, "Resources beyond the spec's tables"). */
import type { Addresses } from '../core/types.js';
import type { ShopRow } from '../store/types.js';

export const shopsUrl = (a: Addresses) => `${a.baseUrl}/shops.json`;
export const shopUrl = (a: Addresses, id: string) => `${a.baseUrl}/shops/${id}.json`;
export const shopThemeUrl = (a: Addresses, shopId: string) => `${a.baseUrl}/shops/${shopId}/theme.json`;
export const productsUrl = (a: Addresses) => `${a.baseUrl}/products.json`;
export const productUrl = (a: Addresses, shopId: string, id: string) =>
  `${a.baseUrl}/shops/${shopId}/products/${id}.json`;
export const ordersUrl = (a: Addresses) => `${a.baseUrl}/orders.json`;
export const orderUrl = (a: Addresses, shopId: string, id: string) => `${a.baseUrl}/shops/${shopId}/orders/${id}.json`;

/**
 * A shop's storefront on the web. The reference server does not host storefronts, so the address is on the
 * reserved `.example` domain (RFC 2606): well-formed, never anyone's real site.
 */
export const storefrontUrl = (shop: ShopRow) => `https://${shop.subdomain}.storefront.example/`;
