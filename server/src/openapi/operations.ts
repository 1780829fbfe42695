/**
 * What the route table does not say of each resource route: which relation of the contract it answers (its verb,
 * template variables, body and target come from there), and what it answers when no relation names it. Keyed by
 * the route's `METHOD path`; the document refuses a route without an entry and an entry without a route.
 */
import type { SvcRelationName } from '../api/relation-entry.js';

/** One resource route, described. */
export interface OperationSpec {
  /** `operationId`, unique in the document. */
  id: string;
  /** The relation whose link leads here: the registry's summary, the contract's vars, body and target. */
  relation?: SvcRelationName;
  /** Target when no relation gives it (a representation name). */
  target?: string;
  /** Summary when no relation gives it. */
  summary?: string;
  /** Whether the server's links to it carry the `.json` suffix: the documented path then does too. */
  json?: boolean;
  /**
   * `true`: 201 with `Location` when it created the resource, 200 when it found or replaced one; `'always'`: every
   * success created one (201 with `Location`).
   */
  creates?: true | 'always';
}

export const OPERATIONS: Readonly<Record<string, OperationSpec>> = {
  'GET /': {
    id: 'getRoot',
    target: 'root',
    summary: 'The entry point: who the caller is, and links to everything the token may use.',
  },
  'GET /shops': { id: 'listShops', relation: 'svc:shops', json: true },
  'GET /shops/:id': { id: 'getShop', relation: 'svc:shop', json: true },
  'GET /products': { id: 'listProducts', relation: 'svc:all_products', json: true },
  'GET /shops/:shop_id/products/:id': { id: 'getProduct', relation: 'svc:product', json: true },
  'GET /orders': { id: 'listOrders', relation: 'svc:all_orders', json: true },
  'GET /shops/:shop_id/orders/:id': { id: 'getOrder', relation: 'svc:order', json: true },
  'GET /shops/:shop_id/theme': { id: 'getProductionTheme', relation: 'svc:theme', json: true },
  'GET /themes/:theme_id': {
    id: 'getTheme',
    target: 'theme',
    summary: 'A theme by id: the `self` of every theme, and the production theme’s `svc:dev_theme`.',
  },
  'PUT /themes/:theme_id': { id: 'updateTheme', relation: 'svc:update_theme' },
  'POST /shops/:shop_id/themes': { id: 'createDevTheme', relation: 'svc:create_dev_theme', creates: true },
  'GET /themes/:theme_id/templates/:template_id': {
    id: 'getTemplate',
    target: 'themeTemplate',
    summary: 'One template of a theme, with its full source text.',
  },
  'POST /themes/:theme_id/templates': { id: 'createTemplate', relation: 'svc:create_template', creates: true },
  'PUT /themes/:theme_id/templates/:template_id': { id: 'updateTemplate', relation: 'svc:update_template' },
  'DELETE /themes/:theme_id/templates/:template_id': { id: 'deleteTemplate', relation: 'svc:delete_template' },
  'POST /themes/:theme_id/assets': { id: 'createThemeAsset', relation: 'svc:create_theme_asset', creates: true },
  'DELETE /themes/:theme_id/assets/:asset_id': { id: 'deleteThemeAsset', relation: 'svc:delete_theme_asset' },
  'GET /events': { id: 'listEvents', relation: 'svc:events', json: true },
  'GET /events/:id': { id: 'getEvent', relation: 'svc:event', json: true },
  'GET /webhook_endpoints': { id: 'listWebhookEndpoints', relation: 'svc:webhook_endpoints', json: true },
  'POST /webhook_endpoints': {
    id: 'createWebhookEndpoint',
    relation: 'svc:create_webhook_endpoint',
    creates: 'always',
  },
  'GET /webhook_endpoints/:endpoint_id': { id: 'getWebhookEndpoint', relation: 'svc:webhook_endpoint' },
  'PUT /webhook_endpoints/:endpoint_id': { id: 'updateWebhookEndpoint', relation: 'svc:update_webhook_endpoint' },
  'DELETE /webhook_endpoints/:endpoint_id': { id: 'deleteWebhookEndpoint', relation: 'svc:delete_webhook_endpoint' },
  'POST /webhook_endpoints/:endpoint_id/rotate_secret': {
    id: 'rotateWebhookSecret',
    relation: 'svc:rotate_webhook_secret',
  },
  'POST /webhook_endpoints/:endpoint_id/ping': {
    id: 'pingWebhookEndpoint',
    relation: 'svc:ping_webhook_endpoint',
    creates: 'always',
  },
  'GET /webhook_endpoints/:endpoint_id/deliveries': {
    id: 'listWebhookDeliveries',
    relation: 'svc:deliveries',
    json: true,
  },
  'GET /webhook_deliveries/:delivery_id': {
    id: 'getWebhookDelivery',
    target: 'webhookDelivery',
    summary: 'One delivery attempt: the `self` of every attempt, and what `svc:ping_webhook_endpoint` answers.',
  },
  'POST /webhook_deliveries/:delivery_id/resend': {
    id: 'resendWebhookEvent',
    relation: 'svc:resend_event',
    creates: 'always',
  },
};
