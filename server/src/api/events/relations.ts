/**
 * The registry entries of events, webhook endpoints and their deliveries (`shared/design/events.md`), and of the
 * root's links to them: the links' `method` and the `/rels/{rel}` documentation pages.
 */
import type { EventRelationName, RelationTable } from '../relation-entry.js';
import { LISTED_TYPES } from './event-types.js';

const TYPES = [...LISTED_TYPES, 'ping'].map((type) => `\`${type}\``).join(', ');

/** The registry entries of the event and webhook relations. */
export const eventRelations: RelationTable<EventRelationName> = {
  'svc:events': {
    method: 'get',
    summary:
      'The events of the shops you administer, oldest first: one for every write, written in the same commit as the write (admin tokens only; kept 30 days).',
    target: `A results entity of events (\`_class ["results", "event"]\`). Template variables: \`after\` (an event id: only the events written after it; \`next\` carries it), \`types\` (comma-separated: ${TYPES}), \`shop_ids\` (comma-separated), \`wait\` (0–30 seconds: while no event is after the cursor, the answer is held until one is written or the time is up: long-polling), \`per_page\` (1–100, default 30).`,
    example: 'GET /v1/events.json?after=evt_0000000a3f…&wait=25 → 200 results',
  },
  'svc:event': {
    method: 'get',
    summary: 'One event: its type, shop, the summary of what changed (`data`) and a link to it (`svc:subject`).',
    target:
      'An event (`_class ["event"]`): `id`, `type`, `created_on`, `shop_id`, `data` (the subject’s summary fields and its `etag`, for a conditional GET of `svc:subject`). Template variable on the root: `id`. This is also the body of each webhook delivery.',
    example: 'GET /v1/events/evt_0000000a3f….json → 200 event',
  },
  'svc:subject': {
    method: 'get',
    summary:
      'The theme, template, asset, product or order the event is about, as it is now. Send `If-None-Match` with the event’s `data.etag`: a 304 says it has not changed since.',
    target:
      'The subject’s representation. Absent from events of deletes and from pings. An asset has no representation of its own: its link is the asset’s file.',
    example: 'GET /v1/themes/3/templates/12 (If-None-Match: "…") → 304',
  },
  'svc:webhook_endpoints': {
    method: 'get',
    summary: 'The webhook endpoints of the app whose token you hold (admin tokens only).',
    target:
      'A results entity of webhook endpoints (`_class ["results", "webhookEndpoint"]`). Template variables: `page`, `per_page`.',
    example: 'GET /v1/webhook_endpoints.json → 200 results',
  },
  'svc:create_webhook_endpoint': {
    method: 'post',
    title: 'Add webhook endpoint',
    summary:
      'Register an address that is sent the events of the shops you administer, signed per Standard Webhooks 1.0 and retried until it answers 2xx (admin tokens only).',
    target:
      'The endpoint (`_class ["webhookEndpoint"]`), 201 with `Location`. Its `secret` (`whsec_…`) is in this answer only: keep it to verify the `webhook-signature` header.',
    payload: `JSON \`{"url": string, "events"?: string[], "description"?: string}\`. \`url\`: \`http://\` or \`https://\`; a server listening beyond the loopback interface refuses loopback, private and link-local addresses unless they are allowed. \`events\`: ${TYPES}, or \`["*"]\` (the default) for all. An app has at most 16 endpoints.`,
    example: 'POST /v1/webhook_endpoints {"url":"http://localhost:3000/webhooks","events":["template.updated"]} → 201',
  },
  'svc:update_webhook_endpoint': {
    method: 'put',
    title: 'Update webhook endpoint',
    summary: 'Change the endpoint’s address, its event types or description, or disable or enable it.',
    target: 'The updated endpoint, 200.',
    payload:
      'JSON `{"url"?: string, "events"?: string[], "description"?: string, "status"?: "enabled" | "disabled"}`. Enabling an endpoint the server disabled clears its `disabled_reason` and its count of failing days.',
    example: 'PUT /v1/webhook_endpoints/2 {"status":"enabled"} → 200 webhookEndpoint',
  },
  'svc:delete_webhook_endpoint': {
    method: 'delete',
    title: 'Delete webhook endpoint',
    summary: 'Remove the endpoint; its pending deliveries are dropped.',
    target: 'Nothing: 204.',
    example: 'DELETE /v1/webhook_endpoints/2 → 204',
  },
  'svc:rotate_webhook_secret': {
    method: 'post',
    title: 'Rotate secret',
    summary:
      'Give the endpoint a new secret. For 24 hours deliveries carry two signatures, by the new secret and the old one, so that receivers can switch without missing one.',
    target: 'The endpoint with its new `secret` (shown in this answer only), 200.',
    example: 'POST /v1/webhook_endpoints/2/rotate_secret → 200 webhookEndpoint',
  },
  'svc:ping_webhook_endpoint': {
    method: 'post',
    title: 'Ping',
    summary: 'Send the endpoint a `ping` event now, to test it. Pings are not in the event list.',
    target: 'The ping’s first delivery attempt (`_class ["webhookDelivery"]`), 201; follow its `self` for the outcome.',
    example: 'POST /v1/webhook_endpoints/2/ping → 201 webhookDelivery',
  },
  'svc:deliveries': {
    method: 'get',
    summary: 'Every delivery attempt to this endpoint, newest first, with the receiver’s status and timing.',
    target:
      'A results entity of delivery attempts (`_class ["results", "webhookDelivery"]`). Template variables: `page`, `per_page`.',
    example: 'GET /v1/webhook_endpoints/2/deliveries.json → 200 results',
  },
  'svc:webhook_endpoint': {
    method: 'get',
    summary: 'The endpoint this attempt was made to.',
    target: 'A webhook endpoint (`_class ["webhookEndpoint"]`).',
    example: 'GET /v1/webhook_endpoints/2 → 200 webhookEndpoint',
  },
  'svc:resend_event': {
    method: 'post',
    title: 'Resend',
    summary:
      'Deliver this attempt’s event to its endpoint again, now, as a new series of attempts (the same `webhook-id`: receivers that dedupe drop it). Once either series is answered 2xx, the other’s pending attempts are not sent.',
    target: 'The new attempt (`_class ["webhookDelivery"]`), 201.',
    example: 'POST /v1/webhook_deliveries/9/resend → 201 webhookDelivery',
  },
};
