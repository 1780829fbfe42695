/** Small rows of a few collections, for the store's tests. */
import type {
  AssetFileRow,
  NewRow,
  TemplateRow,
  ThemeRow,
  TokenRow,
  WebhookDeliveryRow,
} from '../../src/store/types.js';

/** A theme without its id: the store allocates one. */
export function newTheme(shop_id: string, title = 'Theme', production = true): NewRow<'themes'> {
  return { shop_id, title, production, settings: {}, preview_key: `key-${title}`, created_on: '', updated_on: '' };
}

export function theme(id: string, shop_id: string, production = true): ThemeRow {
  return { ...newTheme(shop_id, `Theme ${id}`, production), id };
}

export function newTemplate(theme_id: string, file_name: string, body = 'x'): NewRow<'templates'> {
  return { theme_id, file_name, body, created_on: '', updated_on: '' };
}

export function template(id: string, theme_id = '1', body = 'x'): TemplateRow {
  return { ...newTemplate(theme_id, `t${id}.html`, body), id };
}

export function newToken(n: number): NewRow<'tokens'> {
  return { token_hash: `hash-${n}`, app_id: '1', user_id: '1', scopes: ['admin'], issued_at: n, expires_at: n + 1 };
}

export function token(id: string, n = Number(id)): TokenRow {
  return { ...newToken(n), id };
}

export function file(id: string, data: string): AssetFileRow {
  return { id, data };
}

/** A pending first attempt of event 1 to endpoint 1, due at once, without its id: the store allocates one. */
export function newDelivery(): NewRow<'webhook_deliveries'> {
  return {
    event_id: '1',
    event_type: 'template.created',
    endpoint_id: '1',
    attempt: 1,
    status: 'pending',
    response_status: null,
    duration_ms: null,
    error: null,
    attempted_on: null,
    due_at: 0,
    next_attempt_on: null,
    created_on: new Date(0).toISOString(),
  };
}

export function delivery(id: string): WebhookDeliveryRow {
  return { ...newDelivery(), id };
}
