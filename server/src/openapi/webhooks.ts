/**
 * The document's `webhooks` (OpenAPI 3.1): what the server POSTs to an app's endpoints, one entry per event type.
 * Each delivery's body is the event as `GET svc:event` gives it (`Event`), narrowed to its type: `type` that one
 * name, `data` the contract's `data` of that type (`EventDataMap`). Signed per Standard Webhooks 1.0
 * (`shared/design/events.md`, "Delivery").
 */
import { CONTRACT } from './contract.js';
import type { Schema } from './contract-types.js';
import { schemaRef } from './hal-schemas.js';

/** When each event type is written (events.md's table); the document refuses a type that has none. */
const WRITTEN_WHEN: Readonly<Record<string, string>> = {
  'theme.created': 'A development theme was created (`svc:create_dev_theme`).',
  'theme.updated': 'A theme was changed (`svc:update_theme`).',
  'template.created': 'A template was created (`svc:create_template`, or an upsert that created it).',
  'template.updated':
    'A template was changed (`svc:update_template`, or `svc:create_template` over the same file name).',
  'template.deleted': 'A template was deleted (`svc:delete_template`); the event has no `svc:subject`.',
  'theme_asset.created': 'A theme asset was uploaded (`svc:create_theme_asset`).',
  'theme_asset.updated': 'A theme asset was uploaded over the same file name.',
  'theme_asset.deleted': 'A theme asset was deleted (`svc:delete_theme_asset`); the event has no `svc:subject`.',
  'product.created': 'The sandbox created a product (a trigger or the control API: the API has no product writes).',
  'product.updated': 'The sandbox changed a product.',
  'order.created': 'The sandbox created an order (a trigger or the control API: the API has no order writes).',
  'order.updated': 'The sandbox changed an order.',
  ping: 'Sent to one endpoint on request (`svc:ping_webhook_endpoint`), to test it; not in the event list.',
};

const header = (name: string, description: string, pattern: string, required = true) => ({
  name,
  in: 'header',
  required,
  description,
  schema: { type: 'string', pattern },
});

/** The headers of every delivery, by component name: the Standard Webhooks ones, and the request's id. */
export const WEBHOOK_PARAMETERS = {
  WebhookId: header(
    'webhook-id',
    'The event’s `id` (`evt_…`), the same on every attempt and on a resend: dedupe on it (delivery is at least once).',
    '^evt_',
  ),
  WebhookTimestamp: header(
    'webhook-timestamp',
    'When this attempt was made, in seconds since the epoch: refuse one too far from your clock (replays).',
    '^[0-9]+$',
  ),
  WebhookSignature: header(
    'webhook-signature',
    '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed by the base64-decoded part of the endpoint’s secret after `whsec_`; space-separated, two of them while a rotation overlaps (24 hours): accept the delivery when one verifies.',
    '^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)*$',
  ),
  StorefrontRequestId: header(
    'storefront-request-id',
    'The `X-Request-Id` of the API request whose write recorded the event (the body’s `request_id`), to join the delivery with that request’s answer and the server’s log; absent when no API request caused it (a trigger). Not `X-Request-Id`: a delivery is a request of its own, which your framework or proxy may name by that header. Not signed (no header is): the signed body’s `request_id` is the one to trust.',
    '^[A-Za-z0-9\\-_.:+=/@]{1,128}$',
    false,
  ),
};

/** Component name of the event narrowed to `type`: `template.updated` → `TemplateUpdatedEvent`. */
export function eventComponentName(type: string): string {
  const words = type.split(/[._]/).map((word) => word[0]!.toUpperCase() + word.slice(1));
  return `${words.join('')}Event`;
}

/** The event types and their `data` schemas, from the contract's `EventDataMap`. */
export function eventTypes(): [type: string, data: Schema][] {
  const map = CONTRACT.schemas.EventDataMap;
  if (!map) throw new Error('the contract has no EventDataMap');
  return Object.entries(map.properties as Record<string, Schema>);
}

/** One component per event type: `Event` with its `type` and `data` narrowed. */
export function narrowedEventSchemas(): Record<string, Schema> {
  return Object.fromEntries(
    eventTypes().map(([type, data]) => [
      eventComponentName(type),
      {
        description: `A \`${type}\` event: ${WRITTEN_WHEN[type] ?? ''}`,
        allOf: [schemaRef('Event'), { properties: { type: { const: type }, data } }],
      },
    ]),
  );
}

/** The `webhooks` of the document: a POST per event type. */
export function webhooks(): Record<string, unknown> {
  const parameters = Object.keys(WEBHOOK_PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` }));
  return Object.fromEntries(
    eventTypes().map(([type]) => {
      const when = WRITTEN_WHEN[type];
      if (!when) throw new Error(`server/src/openapi/webhooks.ts says nothing of when a ${type} event is written`);
      const post = {
        operationId: `${eventComponentName(type)[0]!.toLowerCase()}${eventComponentName(type).slice(1)}Webhook`,
        tags: ['Webhooks'],
        summary: `\`${type}\` event`,
        description: `${when} POSTed to every enabled endpoint of the shop’s administrator that subscribes to \`${type}\` (or \`*\`), signed per Standard Webhooks 1.0. Not acknowledged (no 2xx within 15 s), the attempt is retried on the Standard’s schedule; \`410 Gone\` disables the endpoint; \`Retry-After\` on 429 and 503 is honoured.`,
        security: [],
        parameters,
        requestBody: {
          required: true,
          description: 'The event, as `GET svc:event` answers it (its `curies` link included), and a newline.',
          content: { 'application/json': { schema: schemaRef(eventComponentName(type)) } },
        },
        responses: {
          '2XX': { description: 'Acknowledged: the event is not sent to this endpoint again (bar a resend).' },
          '410': { description: 'Gone: the server disables the endpoint and sends it nothing more.' },
          '429': {
            description: 'Too many requests: retried, not before `Retry-After` when it is given.',
            headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
          },
          default: { description: 'Not acknowledged: the attempt is retried on the Standard’s schedule.' },
        },
      };
      return [type, { post }];
    }),
  );
}
