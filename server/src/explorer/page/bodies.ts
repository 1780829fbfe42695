/**
 * The JSON body a write starts from, prefilled from the resource the link belongs to: what the relation takes
 * (a field it does not know is a 422 on that field), with the resource's current values. Typed with the
 * SDK's body types, so that a change of the contract shows here.
 */
import type {
  CreateTemplateBody,
  CreateThemeAssetBody,
  UpdateTemplateBody,
  UpdateThemeBody,
} from '@storefront-platform/sdk';
// The webhook bodies are not among the SDK's public exports yet; the contract's, through the internal entry.
import type { CreateWebhookEndpointBody, UpdateWebhookEndpointBody } from '@storefront-platform/sdk/internal';

type Properties = Record<string, unknown>;

/** A 1×1 GIF: a valid upload to try `create_theme_asset` with. */
const PIXEL = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** By relation name without its prefix; `null`: the relation takes no body. */
const PREFILLS: Record<string, (p: Properties) => object | null> = {
  update_template: (p): UpdateTemplateBody => ({
    body: String(p.body ?? ''),
    file_name: String(p.file_name ?? ''),
    // The lost-update guard, as the server gave it: to the millisecond (epoch seconds cannot tell two changes
    // made within one second apart).
    last_updated_on: typeof p.updated_on === 'string' ? p.updated_on : undefined,
  }),
  update_theme: (p): UpdateThemeBody => ({ title: String(p.title ?? ''), settings: (p.settings ?? {}) as Properties }),
  create_template: (): CreateTemplateBody => ({ file_name: 'snippets/new.html', body: '<p>New snippet</p>\n' }),
  create_theme_asset: (): CreateThemeAssetBody => ({ file_name: 'images/pixel.gif', data: PIXEL }),
  create_dev_theme: () => null,
  // `events` is an array: the dialog edits it as JSON and sends it as one.
  create_webhook_endpoint: (): CreateWebhookEndpointBody => ({
    url: 'http://localhost:3000/webhooks',
    events: ['*'],
    description: '',
  }),
  update_webhook_endpoint: (p): UpdateWebhookEndpointBody => ({
    url: String(p.url ?? ''),
    events: (Array.isArray(p.events) ? p.events : ['*']) as UpdateWebhookEndpointBody['events'],
    description: String(p.description ?? ''),
    status: p.status === 'disabled' ? 'disabled' : 'enabled',
  }),
  rotate_webhook_secret: () => null,
  ping_webhook_endpoint: () => null,
  resend_event: () => null,
};

/**
 * The body to start from for following `rel` with `method` from a resource with `properties`: `null` for a
 * request without one (DELETE, and writes that take none). Relations the explorer does not know start from
 * the resource's properties.
 */
export function prefilledBody(rel: string, method: string, properties: Properties): object | null {
  if (method === 'GET' || method === 'DELETE') return null;
  const prefill = PREFILLS[rel.replace(/^[^:]+:(?!\/\/)/, '')];
  return prefill ? prefill(properties) : properties;
}
