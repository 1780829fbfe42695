/**
 * Webhook endpoints of the caller's app and user, their delivery attempts, ping and resend (admin tokens). An
 * endpoint belongs to the app and the user whose token created it: it is sent the events of that user's shops, and
 * one app's client id may be shared by many users (the demo app's, the explorer's), so every other caller, of
 * another app or of another user of the same app, is answered 404 for it.
 */

import type { EventType } from '@storefront-platform/sdk/internal';
import { API_LIMITS } from '@storefront-platform/sdk/internal';
import { assertPreconditions, NO_REPRESENTATION } from '../../http/conditional.js';
import { notFound, validationError } from '../../http/http-error.js';
import type { Call, Route } from '../../http/route.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../../store/types.js';
import { targetProblem } from '../../webhooks/targets.js';
import { readBody } from '../contract-schemas.js';
import { guardedDelete, guardedWrite } from '../guarded-write.js';
import { halEntity } from '../hal.js';
import type { ListOrder } from '../list-order.js';
import { listReply, newest } from '../results.js';
import { isOwnEndpoint, mayRead } from './access.js';
import { isListedType, LISTED_TYPES } from './event-types.js';
import { newWebhookSecret, recordPing, stageDelivery } from './record.js';
import { deliveryResource, endpointResource } from './representations.js';
import { deliveriesUrl, deliveryUrl, endpointsUrl, endpointUrl } from './urls.js';

/** Endpoints an app may have for one user. */
export const MAX_ENDPOINTS = 16;
/** How long the secret before a rotation keeps signing beside the new one (events.md). */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const MAX_BODY_BYTES = 16 * 1024;
const MAX_URL_LENGTH = API_LIMITS.webhookUrlLength;
const MAX_DESCRIPTION = API_LIMITS.webhookDescriptionLength;

const byId = <R extends { id: string }>(descending: boolean): ListOrder<R> => ({
  field: 'id',
  type: 'number',
  of: (row) => Number(row.id),
  descending,
});

function checkedUrl(call: Call, value: string): string {
  if (value.length > MAX_URL_LENGTH) throw validationError('url', `must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw validationError('url', 'must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw validationError('url', 'must be an absolute http:// or https:// URL');
  }
  if (url.username || url.password) throw validationError('url', 'must not carry credentials');
  const problem = targetProblem(url, call.context.webhookTargets);
  if (problem) throw validationError('url', problem);
  return url.href;
}

/** The contract's schema admits every event type; `ping` is sent on request only, not subscribed to. */
function checkedEvents(value: (EventType | '*')[]): (EventType | '*')[] {
  if (value.length === 0) throw validationError('events', 'must name at least one event type, or "*"');
  for (const type of value) {
    if (type !== '*' && !isListedType(type)) {
      throw validationError('events', `unknown event type "${type}"; known: *, ${LISTED_TYPES.join(', ')}`);
    }
  }
  return [...new Set(value)];
}

function checkedDescription(value: string): string {
  if (value.length > MAX_DESCRIPTION)
    throw validationError('description', `must be at most ${MAX_DESCRIPTION} characters`);
  return value;
}

/** The caller's endpoints, oldest first. */
function ownEndpoints(call: Call, store: Pick<Call['context']['store'], 'where'> = call.context.store) {
  return store.where('webhook_endpoints', 'app_id', call.principal.appId).filter((row) => isOwnEndpoint(call, row));
}

/** The endpoint of the URL, if it is the caller's; else 404. */
function ownEndpoint(call: Call, id = call.params.endpoint_id!): WebhookEndpointRow {
  const endpoint = call.context.store.get('webhook_endpoints', id);
  if (!isOwnEndpoint(call, endpoint)) throw notFound(`No webhook endpoint ${id}`);
  return endpoint;
}

/**
 * The endpoint's entity; with `secret`, the answer that shows it, validated by the endpoint's own tag (what a GET
 * answers), so that an `If-Match` taken from it holds for the next change.
 */
function endpointReply(call: Call, endpoint: WebhookEndpointRow, secret?: string) {
  const { addresses } = call.context;
  const modified = Date.parse(endpoint.updated_on);
  const entity = halEntity(addresses, endpointResource(addresses, endpoint), modified);
  if (secret === undefined) return entity;
  return { ...halEntity(addresses, endpointResource(addresses, endpoint, secret), modified), etag: entity.etag };
}

function deliveryReply(call: Call, id: string) {
  const { addresses, store } = call.context;
  const delivery = store.get('webhook_deliveries', id)!;
  return halEntity(addresses, deliveryResource(addresses, store, delivery), Date.parse(delivery.created_on));
}

export const endpointRoutes: Route[] = [
  {
    method: 'GET',
    path: '/webhook_endpoints',
    scope: 'admin',
    handle(call) {
      const { addresses } = call.context;
      return listReply(call, 'webhookEndpoint', {
        name: 'webhook_endpoints',
        variant: `${call.principal.appId}:${call.principal.userId}`,
        params: [],
        order: byId<WebhookEndpointRow>(false),
        collections: ['webhook_endpoints'],
        href: `${endpointsUrl(addresses)}.json`,
        rows: () => ownEndpoints(call),
        lastModified: newest,
        summary: (row) => endpointResource(addresses, row),
      });
    },
  },
  {
    method: 'POST',
    path: '/webhook_endpoints',
    scope: 'admin',
    async handle(call) {
      assertPreconditions(call.request.headers, NO_REPRESENTATION);
      const input = await readBody(call.request, 'root', 'svc:create_webhook_endpoint', MAX_BODY_BYTES);
      const url = checkedUrl(call, input.url);
      const events = input.events === undefined ? (['*'] as const) : checkedEvents(input.events);
      const description = checkedDescription(input.description ?? '');
      const secret = newWebhookSecret();
      const { principal, context } = call;
      const endpoint = await context.store.write((tx) => {
        if (ownEndpoints(call, tx).length >= MAX_ENDPOINTS) {
          throw validationError(
            'url',
            `you have ${MAX_ENDPOINTS} webhook endpoints in this app, the most you may have`,
          );
        }
        const now = new Date(context.clock.now()).toISOString();
        return tx.insert('webhook_endpoints', {
          app_id: principal.appId,
          user_id: principal.userId,
          url,
          events: [...events],
          description,
          status: 'enabled',
          disabled_reason: null,
          secret,
          failing_since: null,
          created_on: now,
          updated_on: now,
        });
      });
      const location = endpointUrl(context.addresses, endpoint.id);
      return { status: 201, entity: endpointReply(call, endpoint, secret), headers: { location } };
    },
  },
  {
    method: 'GET',
    path: '/webhook_endpoints/:endpoint_id',
    scope: 'admin',
    handle: (call) => ({ entity: endpointReply(call, ownEndpoint(call)) }),
  },
  {
    method: 'PUT',
    path: '/webhook_endpoints/:endpoint_id',
    scope: 'admin',
    async handle(call) {
      assertPreconditions(call.request.headers, endpointReply(call, ownEndpoint(call)));
      const input = await readBody(call.request, 'webhookEndpoint', 'svc:update_webhook_endpoint', MAX_BODY_BYTES);
      const patch: Partial<WebhookEndpointRow> = {};
      if (input.url !== undefined) patch.url = checkedUrl(call, input.url);
      if (input.events !== undefined) patch.events = checkedEvents(input.events);
      if (input.description !== undefined) patch.description = checkedDescription(input.description);
      if (input.status !== undefined) {
        patch.status = input.status;
        // Enabled again (or disabled by hand): whatever the server had found is history.
        patch.disabled_reason = null;
        patch.failing_since = null;
      }
      const current = () => ownEndpoint(call);
      const updated = await guardedWrite(call, current, endpointReply, (tx, row) => {
        const updated_on = new Date(call.context.clock.now()).toISOString();
        return tx.update('webhook_endpoints', row.id, { ...patch, updated_on });
      });
      return { entity: endpointReply(call, updated) };
    },
  },
  {
    method: 'DELETE',
    path: '/webhook_endpoints/:endpoint_id',
    scope: 'admin',
    handle(call) {
      return guardedDelete(
        call,
        () => ownEndpoint(call),
        endpointReply,
        (tx, row) => {
          tx.delete('webhook_endpoints', row.id);
          // Its pending attempts go with it; those made stay as history until their events are pruned.
          for (const delivery of tx.where('webhook_deliveries', 'endpoint_id', row.id)) {
            if (delivery.status === 'pending') tx.delete('webhook_deliveries', delivery.id);
          }
        },
      );
    },
  },
  {
    method: 'POST',
    path: '/webhook_endpoints/:endpoint_id/rotate_secret',
    scope: 'admin',
    async handle(call) {
      ownEndpoint(call);
      const secret = newWebhookSecret();
      const updated = await call.context.store.write((tx) => {
        const current = ownEndpoint(call);
        const now = call.context.clock.now();
        return tx.update('webhook_endpoints', current.id, {
          secret,
          previous_secret: current.secret,
          previous_secret_until: now + ROTATION_OVERLAP_MS,
          updated_on: new Date(now).toISOString(),
        });
      });
      return { entity: endpointReply(call, updated, secret) };
    },
  },
  {
    method: 'POST',
    path: '/webhook_endpoints/:endpoint_id/ping',
    scope: 'admin',
    async handle(call) {
      ownEndpoint(call);
      const delivery = await call.context.store.write((tx) => recordPing(tx, call.context, ownEndpoint(call)));
      const location = deliveryUrl(call.context.addresses, delivery.id);
      return { status: 201, entity: deliveryReply(call, delivery.id), headers: { location } };
    },
  },
  {
    method: 'GET',
    path: '/webhook_endpoints/:endpoint_id/deliveries',
    scope: 'admin',
    handle(call) {
      const endpoint = ownEndpoint(call);
      const { store, addresses } = call.context;
      return listReply(call, 'webhookDelivery', {
        name: `webhook_deliveries:${endpoint.id}`,
        variant: `${call.principal.appId}:${call.principal.userId}`,
        params: [],
        order: byId<WebhookDeliveryRow>(true),
        collections: ['webhook_deliveries', 'events'],
        href: deliveriesUrl(addresses, endpoint.id),
        rows: () => [...store.where('webhook_deliveries', 'endpoint_id', endpoint.id)].reverse(),
        lastModified: (rows) => (rows.length ? Date.parse(rows[0]!.created_on) : 0),
        summary: (row) => deliveryResource(addresses, store, row),
      });
    },
  },
  {
    method: 'GET',
    path: '/webhook_deliveries/:delivery_id',
    scope: 'admin',
    handle(call) {
      const delivery = call.context.store.get('webhook_deliveries', call.params.delivery_id!);
      if (!delivery || !ownsDelivery(call, delivery.endpoint_id))
        throw notFound(`No delivery ${call.params.delivery_id}`);
      return { entity: deliveryReply(call, delivery.id) };
    },
  },
  {
    method: 'POST',
    path: '/webhook_deliveries/:delivery_id/resend',
    scope: 'admin',
    async handle(call) {
      const id = call.params.delivery_id!;
      const { store, clock } = call.context;
      const created = await store.write((tx) => {
        const delivery = tx.get('webhook_deliveries', id);
        const event = delivery && tx.get('events', delivery.event_id);
        if (!delivery || !event || !ownsDelivery(call, delivery.endpoint_id) || !mayRead(call, event)) {
          throw notFound(`No delivery ${id}`);
        }
        const now = clock.now();
        const series = { event_id: event.id, event_type: event.type, endpoint_id: delivery.endpoint_id, attempt: 1 };
        return stageDelivery(tx, series, now, now);
      });
      const location = deliveryUrl(call.context.addresses, created.id);
      return { status: 201, entity: deliveryReply(call, created.id), headers: { location } };
    },
  },
];

function ownsDelivery(call: Call, endpointId: string): boolean {
  // The endpoint may be gone; its attempts stay readable to nobody then, as other callers' are.
  return isOwnEndpoint(call, call.context.store.get('webhook_endpoints', endpointId));
}
