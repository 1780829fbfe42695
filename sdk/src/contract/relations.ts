/**
 * What every representation holds and what each of its relations does: the typed map that lets
 * `entity.follow('svc:create_template', body)` check its body and know what comes back.
 * The server's relation registry is declared against these names, so a relation cannot exist on one side only.
 */
import type {
  EventFields,
  EventType,
  WebhookDeliveryFields,
  WebhookEndpointFields,
  WebhookEndpointStatus,
} from './events.js';
import type {
  OrderFields,
  OrderLineItemFields,
  OrderStatus,
  OrderSummaryFields,
  ProductFields,
  ProductStatus,
  ProductSummaryFields,
  ProductVariantFields,
  RootFields,
  ShopFields,
  ShopSummaryFields,
  TemplateFields,
  ThemeAssetFields,
  ThemeFields,
} from './resources.js';

/** Verbs used to follow a relation. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete';

/**
 * What following a relation yields: a representation, a results entity of a representation,
 * nothing (204), or a non-JSON document (an HTML page, a file).
 */
export type Target = RepresentationName | `results:${RepresentationName}` | 'none' | 'document';

/**
 * One relation: its verb, the variables of its URI template, its JSON body and its target.
 * `V` and `B` are `never` when the relation takes none.
 */
export interface Relation<M extends HttpMethod, T extends Target, V = never, B = never> {
  method: M;
  target: T;
  vars: V;
  body: B;
}

/** Variables of a results link. */
export interface PagingVars {
  page?: number;
  /** 1–100, default 30. */
  per_page?: number;
}

/** Sort orders accepted by the product list. */
export type ProductSort =
  | 'updated_on.desc'
  | 'updated_on.asc'
  | 'created_on.desc'
  | 'created_on.asc'
  | 'title.asc'
  | 'title.desc'
  | 'price.asc'
  | 'price.desc';

/** Sort orders accepted by the order list. */
export type OrderSort =
  | 'updated_on.desc'
  | 'updated_on.asc'
  | 'created_on.desc'
  | 'created_on.asc'
  | 'total.asc'
  | 'total.desc';

/** A value or a list, for comma-separated query parameters such as `shop_ids`. */
export type OneOrMany<T> = T | readonly T[];

/** Query of the product list (`svc:all_products`, `svc:products`). */
export interface ProductQuery extends PagingVars {
  /** Matches title, vendor and tags. */
  q?: string;
  shop_ids?: OneOrMany<string | number>;
  status?: ProductStatus;
  tags?: OneOrMany<string>;
  sort?: ProductSort;
}

/** Query of the order list (`svc:all_orders`, `svc:orders`). */
export interface OrderQuery extends PagingVars {
  /** Matches the order code or the contact's name or email. */
  q?: string;
  shop_ids?: OneOrMany<string | number>;
  status?: OrderStatus;
  sort?: OrderSort;
}

/** Query of the public shop list (`svc:shops`). */
export interface ShopQuery extends PagingVars {
  q?: string;
}

/** Body of `svc:update_theme`. */
export interface UpdateThemeBody {
  title?: string;
  settings?: Record<string, unknown>;
}

/** Body of `svc:create_template` (an existing file name makes it an update). */
export interface CreateTemplateBody {
  file_name: string;
  body: string;
  /**
   * Lost-update guard: the `updated_on` last seen, as given (to the millisecond); a mismatch is a 422 on
   * `updated_on`. Its epoch seconds (older clients) are refused alike when the template changed twice in that second.
   */
  last_updated_on?: string | number;
}

/** Body of `svc:update_template`. */
export interface UpdateTemplateBody {
  body?: string;
  file_name?: string;
  /**
   * Lost-update guard: the `updated_on` last seen, as given (to the millisecond); a mismatch is a 422 on
   * `updated_on`. Its epoch seconds (older clients) are refused alike when the template changed twice in that second.
   */
  last_updated_on?: string | number;
}

/** Body of `svc:create_theme_asset`: the file as base64 (a `data:*;base64,` prefix is tolerated). */
export interface CreateThemeAssetBody {
  file_name: string;
  data: string;
}

/** Query of the event list (`svc:events`): oldest first, from a cursor. */
export interface EventQuery {
  /** An event id: only the events written after it. */
  after?: string;
  /** Only these types. */
  types?: OneOrMany<EventType>;
  shop_ids?: OneOrMany<string | number>;
  /** Seconds (at most 30) to hold the answer open while no event is after the cursor: long-polling. */
  wait?: number;
  /** 1–100, default 30. */
  per_page?: number;
}

/** Body of `svc:create_webhook_endpoint`. */
export interface CreateWebhookEndpointBody {
  /** `http(s)://` address events are POSTed to. */
  url: string;
  /** Event types to send, or `["*"]` (the default) for all. */
  events?: (EventType | '*')[];
  description?: string;
}

/** Body of `svc:update_webhook_endpoint`: what changes. */
export interface UpdateWebhookEndpointBody {
  url?: string;
  events?: (EventType | '*')[];
  description?: string;
  /** `enabled` again after the server disabled it, or `disabled` to pause it. */
  status?: WebhookEndpointStatus;
}

type Self<R extends RepresentationName> = { self: Relation<'get', R> };

/** Relations of the root resource. */
export interface RootRelations extends Self<'root'> {
  'svc:all_products': Relation<'get', 'results:productSummary', ProductQuery>;
  'svc:product': Relation<'get', 'product', { shop_id: string | number; id: string | number }>;
  'svc:shops': Relation<'get', 'results:shopSummary', ShopQuery>;
  'svc:shop': Relation<'get', 'shop', { id: string | number }>;
  /** Admin tokens only. */
  'svc:all_orders': Relation<'get', 'results:orderSummary', OrderQuery>;
  /** Admin tokens only. */
  'svc:order': Relation<'get', 'order', { shop_id: string | number; id: string | number }>;
  /** The OpenAPI 3.1 document of the service (RFC 8631), at `{base_url}/openapi.json`. */
  'service-desc': Relation<'get', 'document'>;
  /** The API explorer (`text/html`, RFC 8631), where the server serves one. */
  'service-doc': Relation<'get', 'document'>;
  /** Events of the shops the user administers, oldest first (admin tokens only). */
  'svc:events': Relation<'get', 'results:event', EventQuery>;
  /** One event (admin tokens only). */
  'svc:event': Relation<'get', 'event', { id: string }>;
  /** This app's webhook endpoints (admin tokens only). */
  'svc:webhook_endpoints': Relation<'get', 'results:webhookEndpoint', PagingVars>;
  /** Registers a webhook endpoint of this app; the answer holds its secret, once (admin tokens only). */
  'svc:create_webhook_endpoint': Relation<'post', 'webhookEndpoint', never, CreateWebhookEndpointBody>;
}

/** Relations of an event. */
export interface EventRelations extends Self<'event'> {
  /**
   * The resource the event is about (a theme, template, product or order; an asset's file, a document): absent
   * after a delete and on a `ping`. Its `ETag` at the time is `data.etag`.
   */
  'svc:subject': Relation<'get', 'theme' | 'themeTemplate' | 'product' | 'order' | 'document'>;
  'svc:shop': Relation<'get', 'shop'>;
}

/** Relations of a webhook endpoint. */
export interface WebhookEndpointRelations extends Self<'webhookEndpoint'> {
  'svc:update_webhook_endpoint': Relation<'put', 'webhookEndpoint', never, UpdateWebhookEndpointBody>;
  'svc:delete_webhook_endpoint': Relation<'delete', 'none'>;
  /** A new secret, in the answer; the old one keeps signing beside it for 24 hours. */
  'svc:rotate_webhook_secret': Relation<'post', 'webhookEndpoint'>;
  /** Sends a `ping` event to this endpoint; the answer is its first delivery attempt. */
  'svc:ping_webhook_endpoint': Relation<'post', 'webhookDelivery'>;
  /** Its delivery attempts, newest first. */
  'svc:deliveries': Relation<'get', 'results:webhookDelivery', PagingVars>;
}

/** Relations of a delivery attempt. */
export interface WebhookDeliveryRelations extends Self<'webhookDelivery'> {
  'svc:event': Relation<'get', 'event'>;
  'svc:webhook_endpoint': Relation<'get', 'webhookEndpoint'>;
  /** Delivers the event to this endpoint again, now, as a new series of attempts. */
  'svc:resend_event': Relation<'post', 'webhookDelivery'>;
}

/** Relations of a shop. */
export interface ShopRelations extends Self<'shop'> {
  'svc:products': Relation<'get', 'results:productSummary', Omit<ProductQuery, 'shop_ids'>>;
  /** The production theme; admin tokens of the shop's administrators only. */
  'svc:theme': Relation<'get', 'theme'>;
  /** Admin tokens of the shop's administrators only. */
  'svc:orders': Relation<'get', 'results:orderSummary', Omit<OrderQuery, 'shop_ids'>>;
  /** The storefront's web page (`text/html`). */
  'svc:web': Relation<'get', 'document'>;
}

/** Relations of a product's detail. */
export interface ProductRelations extends Self<'product'> {
  'svc:shop': Relation<'get', 'shop'>;
}

/** Relations of an order's detail. */
export interface OrderRelations extends Self<'order'> {
  'svc:shop': Relation<'get', 'shop'>;
}

/** Relations of a theme (spec §2.3). */
export interface ThemeRelations extends Self<'theme'> {
  'svc:update_theme': Relation<'put', 'theme', never, UpdateThemeBody>;
  'svc:create_template': Relation<'post', 'themeTemplate', never, CreateTemplateBody>;
  'svc:create_theme_asset': Relation<'post', 'themeAsset', never, CreateThemeAssetBody>;
  /** An HTML preview of the theme (`text/html`). */
  'svc:theme_preview': Relation<'get', 'document'>;
  /** Present only when the shop has a development theme. */
  'svc:dev_theme': Relation<'get', 'theme'>;
  /** Present only when the shop has no development theme. */
  'svc:create_dev_theme': Relation<'post', 'theme'>;
  'svc:shop': Relation<'get', 'shop'>;
}

/** Relations of a template (spec §2.4). */
export interface TemplateRelations extends Self<'themeTemplate'> {
  'svc:update_template': Relation<'put', 'themeTemplate', never, UpdateTemplateBody>;
  /** Present only on deletable templates, for admin tokens. */
  'svc:delete_template': Relation<'delete', 'none'>;
}

/** Relations of a theme asset (spec §2.5): no `self`. */
export interface ThemeAssetRelations {
  /** The file's bytes on `{static_url}`. */
  file: Relation<'get', 'document'>;
  'svc:delete_theme_asset': Relation<'delete', 'none'>;
}

/** Paging relations of a results entity (IANA names, unprefixed). */
export interface ResultsRelations {
  self: Relation<'get', Target>;
  next: Relation<'get', Target>;
  prev: Relation<'get', Target>;
  first: Relation<'get', Target>;
  last: Relation<'get', Target>;
}

/** No embedded resources, or no relations. */
type None = Record<never, never>;

/**
 * One representation: its `_class`, its fields, what it embeds (name → representation) and its relations.
 */
export interface Representation<C extends string, F, E extends Record<string, RepresentationName>, R> {
  class: C;
  fields: F;
  embedded: E;
  relations: R;
}

/** Every representation of the API, by name. Summaries share the `_class` of their detail. */
export interface Representations {
  root: Representation<'root', RootFields, { shops: 'shopSummary' }, RootRelations>;
  shopSummary: Representation<'shop', ShopSummaryFields, None, Self<'shop'>>;
  shop: Representation<'shop', ShopFields, None, ShopRelations>;
  productSummary: Representation<'product', ProductSummaryFields, None, Self<'product'>>;
  product: Representation<
    'product',
    ProductFields,
    { variants: 'productVariant'; shop: 'shopSummary' },
    ProductRelations
  >;
  productVariant: Representation<'productVariant', ProductVariantFields, None, None>;
  orderSummary: Representation<'order', OrderSummaryFields, None, Self<'order'>>;
  order: Representation<'order', OrderFields, { line_items: 'orderLineItem' }, OrderRelations>;
  orderLineItem: Representation<'orderLineItem', OrderLineItemFields, None, None>;
  theme: Representation<'theme', ThemeFields, { templates: 'themeTemplate'; assets: 'themeAsset' }, ThemeRelations>;
  themeTemplate: Representation<'themeTemplate', TemplateFields, None, TemplateRelations>;
  themeAsset: Representation<'themeAsset', ThemeAssetFields, None, ThemeAssetRelations>;
  event: Representation<'event', EventFields, None, EventRelations>;
  webhookEndpoint: Representation<'webhookEndpoint', WebhookEndpointFields, None, WebhookEndpointRelations>;
  webhookDelivery: Representation<'webhookDelivery', WebhookDeliveryFields, None, WebhookDeliveryRelations>;
}

/** Name of a representation in {@link Representations}. */
export type RepresentationName = keyof Representations;

/** Relation names of a representation. */
export type RelationName<R extends RepresentationName> = keyof Representations[R]['relations'] & string;
