/** Where the root, shop, product and order resources live (wire contract, "Resources beyond the spec's tables"). */
import type { Addresses } from '../core/types.js';
import type { ShopRow } from '../store/types.js';
import { ORDER_FILTERS, PRODUCT_FILTERS, queryTemplate, SHOP_FILTERS } from './list-query.js';

export const shopsUrl = (a: Addresses) => `${a.baseUrl}/shops.json`;
export const shopUrl = (a: Addresses, id: string) => `${a.baseUrl}/shops/${id}.json`;
export const shopThemeUrl = (a: Addresses, shopId: string) => `${a.baseUrl}/shops/${shopId}/theme.json`;
export const productsUrl = (a: Addresses) => `${a.baseUrl}/products.json`;
export const productUrl = (a: Addresses, shopId: string, id: string) =>
  `${a.baseUrl}/shops/${shopId}/products/${id}.json`;
export const ordersUrl = (a: Addresses) => `${a.baseUrl}/orders.json`;
export const orderUrl = (a: Addresses, shopId: string, id: string) => `${a.baseUrl}/shops/${shopId}/orders/${id}.json`;

/** Link templates of the root (wire contract, "Resources beyond the spec's tables"). */
export const shopsTemplate = (a: Addresses) => shopsUrl(a) + queryTemplate(SHOP_FILTERS);
export const shopTemplate = (a: Addresses) => shopUrl(a, '{id}');
export const productsTemplate = (a: Addresses) => productsUrl(a) + queryTemplate(PRODUCT_FILTERS);
export const productTemplate = (a: Addresses) => productUrl(a, '{shop_id}', '{id}');
export const ordersTemplate = (a: Addresses) => ordersUrl(a) + queryTemplate(ORDER_FILTERS);
export const orderTemplate = (a: Addresses) => orderUrl(a, '{shop_id}', '{id}');

/** Link templates of a shop's detail: a list with the shop preset. */
export const shopProductsTemplate = (a: Addresses, shopId: string) =>
  productsUrl(a) + queryTemplate(PRODUCT_FILTERS, ['shop_ids', shopId]);
export const shopOrdersTemplate = (a: Addresses, shopId: string) =>
  ordersUrl(a) + queryTemplate(ORDER_FILTERS, ['shop_ids', shopId]);

/**
 * A shop's storefront on the web. The reference server does not host storefronts, so the address is on the
 * reserved `.example` domain (RFC 2606): well-formed, never anyone's real site.
 */
export const storefrontUrl = (shop: ShopRow) => `https://${shop.subdomain}.storefront.example/`;
