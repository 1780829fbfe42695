import type { CoreRelationName, RelationTable } from './relation-entry.js';

/** The registry entries of the root, shop, product and order relations. */
export const coreRelations: RelationTable<CoreRelationName> = {
  'svc:all_products': {
    method: 'get',
    summary: 'Search and filter the products of every shop you can see.',
    target:
      'A results entity of product summaries (`_class ["results", "product"]`). Template variables: `q` (title, vendor, tags), `shop_ids` (comma-separated), `status` (`visible`, `hidden`), `tags` (comma-separated, all must match), `sort` (`updated_on.desc` default, `updated_on.asc`, `created_on.asc|desc`, `title.asc|desc`, `price.asc|desc`), `page`, `per_page` (1–100, default 30).',
    example: 'GET /v1/products.json?shop_ids=1&q=mug&sort=price.asc → 200 results',
  },
  'svc:product': {
    method: 'get',
    summary: 'One product in detail.',
    target:
      'A product (`_class ["product"]`) with its variants (`_embedded.variants`) and its shop (`_embedded.shop`, an array of one). Template variables: `shop_id`, `id`. Hidden products are found only by the shop’s administrators.',
    example: 'GET /v1/shops/1/products/42.json → 200 product',
  },
  'svc:shops': {
    method: 'get',
    summary: 'The list of public shops.',
    target:
      'A results entity of shop summaries (`_class ["results", "shop"]`). Template variables: `q` (name, subdomain), `page`, `per_page`.',
    example: 'GET /v1/shops.json?q=tea → 200 results',
  },
  'svc:shop': {
    method: 'get',
    summary: 'One shop in detail, with links to its products and, for its administrators, its theme and orders.',
    target: 'A shop (`_class ["shop"]`). Template variable: `id`.',
    example: 'GET /v1/shops/1.json → 200 shop',
  },
  'svc:all_orders': {
    method: 'get',
    summary: 'The orders of the shops you administer (admin tokens only).',
    target:
      'A results entity of order summaries (`_class ["results", "order"]`). Template variables: `shop_ids`, `status` (`open`, `pending`, `paid`, `shipped`, `closed`, `cancelled`), `q` (order code, contact name or email), `sort` (`updated_on.desc` default, `updated_on.asc`, `created_on.asc|desc`, `total.asc|desc`), `page`, `per_page`.',
    example: 'GET /v1/orders.json?status=paid → 200 results',
  },
  'svc:order': {
    method: 'get',
    summary: 'One order in detail (admin tokens only).',
    target:
      'An order (`_class ["order"]`) with its line items (`_embedded.line_items`), contact and address. Template variables: `shop_id`, `id`.',
    example: 'GET /v1/shops/1/orders/7.json → 200 order',
  },
  'svc:products': {
    method: 'get',
    summary: 'The products of this shop.',
    target:
      'A results entity of product summaries, with `shop_ids` preset. Template variables as for `svc:all_products` except `shop_ids`.',
    example: 'GET /v1/products.json?shop_ids=1&page=2 → 200 results',
  },
  'svc:theme': {
    method: 'get',
    summary: 'The production theme of this shop, with its templates and assets (the shop’s administrators only).',
    target: 'A theme (`_class ["theme"]`).',
    example: 'GET /v1/shops/1/theme.json → 200 theme',
  },
  'svc:orders': {
    method: 'get',
    summary: 'The orders of this shop (the shop’s administrators only).',
    target:
      'A results entity of order summaries, with `shop_ids` preset. Template variables as for `svc:all_orders` except `shop_ids`.',
    example: 'GET /v1/orders.json?shop_ids=1&status=open → 200 results',
  },
  'svc:web': {
    method: 'get',
    type: 'text/html',
    summary: 'The shop’s storefront on the web.',
    target: 'An HTML page.',
    example: 'GET https://tea.shops.example/ → 200 text/html',
  },
};
