/** The events' types: handlers get their type's event, the union narrows by `type`, the subject follows typed. */
import type { Client, Order, Product, Template, Theme } from '@storefront-platform/sdk';
import {
  createWebhookHandler,
  type EventOf,
  eventEntity,
  type PingEventData,
  type StorefrontEvent,
  type TemplateEventData,
  verifyWebhook,
} from '@storefront-platform/sdk/webhooks';
import { expectTypeOf } from 'vitest';

declare const client: Client;

createWebhookHandler({
  secrets: 'whsec_x',
  on: {
    'template.updated': (event) => {
      expectTypeOf(event.data).toEqualTypeOf<TemplateEventData>();
      expectTypeOf(event.type).toEqualTypeOf<'template.updated'>();
    },
    ping: (event) => expectTypeOf(event.data).toEqualTypeOf<PingEventData>(),
    '*': (event) => expectTypeOf(event).toEqualTypeOf<StorefrontEvent>(),
  },
});

createWebhookHandler({
  secrets: ['whsec_a', 'whsec_b'],
  // @ts-expect-error: no such event type
  on: { 'template.renamed': () => {} },
});

createWebhookHandler({
  secrets: 'whsec_x',
  on: {
    // @ts-expect-error: a template event has no product fields
    'template.created': (event: EventOf<'product.created'>) => event,
  },
});

const event = await verifyWebhook('', new Headers(), 'whsec_x');
expectTypeOf(event).toEqualTypeOf<StorefrontEvent>();
if (event.type === 'template.deleted') expectTypeOf(event.data).toEqualTypeOf<TemplateEventData>();
// @ts-expect-error: `data` is a union until `type` narrows it
event.data.file_name;

// @ts-expect-error: parsed JSON is no raw body
await verifyWebhook({ type: 'ping' }, new Headers(), 'whsec_x');

const subject = await eventEntity(client, event).follow('svc:subject');
// An asset's subject is its file: a document, answered as a Response.
expectTypeOf(subject).toEqualTypeOf<Theme | Template | Product | Order | Response>();
