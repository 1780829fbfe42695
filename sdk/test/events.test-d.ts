import type {
  Event,
  EventList,
  Root,
  TemplateEventData,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
} from '@storefront-platform/sdk';
import { describe, expectTypeOf, it } from 'vitest';

declare const root: Root;
declare const endpoint: WebhookEndpoint;
declare const delivery: WebhookDelivery;
declare const event: Event;

describe('typed event and webhook relations', () => {
  it('follows the root to events and endpoints', () => {
    expectTypeOf(
      root.follow('svc:events', { after: 'evt_1', types: ['template.updated'], wait: 25 }),
    ).resolves.toEqualTypeOf<EventList>();
    expectTypeOf(root.follow('svc:event', { id: 'evt_1' })).resolves.toEqualTypeOf<Event>();
    expectTypeOf(root.follow('svc:webhook_endpoints')).resolves.toEqualTypeOf<WebhookEndpointList>();
    expectTypeOf(
      root.follow('svc:create_webhook_endpoint', {
        url: 'http://localhost:3000/webhooks',
        events: ['template.updated'],
      }),
    ).resolves.toEqualTypeOf<WebhookEndpoint>();
    const url = 'http://localhost:3000/webhooks';
    // @ts-expect-error: not an event type
    void root.follow('svc:create_webhook_endpoint', { url, events: ['template.changed'] });
    // @ts-expect-error: the url is required
    void root.follow('svc:create_webhook_endpoint', { events: ['*'] });
  });

  it('types an endpoint, its deliveries and their resend', () => {
    expectTypeOf(endpoint.properties.secret).toEqualTypeOf<string | undefined>();
    expectTypeOf(
      endpoint.follow('svc:update_webhook_endpoint', { status: 'enabled' }),
    ).resolves.toEqualTypeOf<WebhookEndpoint>();
    expectTypeOf(endpoint.follow('svc:rotate_webhook_secret')).resolves.toEqualTypeOf<WebhookEndpoint>();
    expectTypeOf(endpoint.follow('svc:ping_webhook_endpoint')).resolves.toEqualTypeOf<WebhookDelivery>();
    expectTypeOf(endpoint.follow('svc:deliveries')).resolves.toEqualTypeOf<WebhookDeliveryList>();
    expectTypeOf(endpoint.follow('svc:delete_webhook_endpoint')).resolves.toEqualTypeOf<undefined>();
    expectTypeOf(delivery.follow('svc:resend_event')).resolves.toEqualTypeOf<WebhookDelivery>();
    expectTypeOf(delivery.follow('svc:event')).resolves.toEqualTypeOf<Event>();
  });

  it('narrows an event’s data by its type', () => {
    const fields = event.properties;
    if (fields.type === 'template.updated') {
      // The contract's EventFields is not a union per type: the receiver's StorefrontEvent narrows (sdk/webhooks).
      expectTypeOf(fields.data).toMatchTypeOf<TemplateEventData | object>();
    }
  });
});
