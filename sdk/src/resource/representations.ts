/** Entity types of every representation of the contract, for annotating variables and parameters. */
import type { Entity } from './entity.js';
import type { Results } from './results.js';
import type { ShapeOf } from './shape-of.js';

/** The entry point at `{base_url}`: the user, the token's scopes, links to everything else. */
export type Root = Entity<ShapeOf<'root'>>;
/** A shop's detail: links to its products, its theme and its orders (admins). */
export type Shop = Entity<ShapeOf<'shop'>>;
/** A shop inside lists and the root's embedded shops; `self` leads to {@link Shop}. */
export type ShopSummary = Entity<ShapeOf<'shopSummary'>>;
/** A product's detail, embedding its variants and its shop. */
export type Product = Entity<ShapeOf<'product'>>;
/** A product inside lists; `self` leads to {@link Product}. */
export type ProductSummary = Entity<ShapeOf<'productSummary'>>;
/** A variant embedded in a {@link Product}. */
export type ProductVariant = Entity<ShapeOf<'productVariant'>>;
/** An order's detail, embedding its line items (admin tokens only). */
export type Order = Entity<ShapeOf<'order'>>;
/** An order inside lists; `self` leads to {@link Order}. */
export type OrderSummary = Entity<ShapeOf<'orderSummary'>>;
/** A line embedded in an {@link Order}. */
export type OrderLineItem = Entity<ShapeOf<'orderLineItem'>>;
/** A shop's design theme, embedding its templates and assets, with the write relations. */
export type Theme = Entity<ShapeOf<'theme'>>;
/** An HTML, CSS or JavaScript template of a theme. */
export type Template = Entity<ShapeOf<'themeTemplate'>>;
/** A static file of a theme: a `file` link and no `self`. */
export type ThemeAsset = Entity<ShapeOf<'themeAsset'>>;
/** A page of products (`svc:all_products`, `svc:products`), walked with `items()`. */
export type ProductList = Results<ShapeOf<'productSummary'>>;
/** A page of public shops (`svc:shops`). */
export type ShopList = Results<ShapeOf<'shopSummary'>>;
/** A page of orders (`svc:all_orders`, `svc:orders`). */
export type OrderList = Results<ShapeOf<'orderSummary'>>;
/** An event (`svc:event`): what changed, in which shop, and `svc:subject`, the resource it is about. */
export type Event = Entity<ShapeOf<'event'>>;
/** A page of events (`svc:events`), oldest first; `next` is always there to poll for newer ones. */
export type EventList = Results<ShapeOf<'event'>>;
/** A webhook endpoint of the app, with its update, delete, rotate, ping and deliveries relations. */
export type WebhookEndpoint = Entity<ShapeOf<'webhookEndpoint'>>;
/** A page of the app's webhook endpoints (`svc:webhook_endpoints`). */
export type WebhookEndpointList = Results<ShapeOf<'webhookEndpoint'>>;
/** One delivery attempt of an event to an endpoint, with `svc:resend_event`. */
export type WebhookDelivery = Entity<ShapeOf<'webhookDelivery'>>;
/** A page of an endpoint's delivery attempts (`svc:deliveries`), newest first. */
export type WebhookDeliveryList = Results<ShapeOf<'webhookDelivery'>>;
