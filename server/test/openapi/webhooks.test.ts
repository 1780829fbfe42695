/**
 * Events, webhook endpoints and deliveries against the OpenAPI document the server serves: every answer of the
 * new routes validates against its operation, and each delivery's body and headers against the document's
 * `webhooks` entry of its event type.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conformance, type Observed } from '../../../test/contract/openapi-conformance.js';
import { type Doc, startThemeServer, type ThemeServer } from '../themes/fixture.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';

let t: ThemeServer;
let receiver: Receiver;
let conformance: Conformance;
// biome-ignore lint/suspicious/noExplicitAny: the document is read as the JSON it is
let document: any;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

beforeAll(async () => {
  t = await startThemeServer();
  receiver = await startReceiver();
  document = await t.json('/openapi.json', { token: null, status: 200 });
  conformance = new Conformance(document);
  ajv.addSchema({ ...document, $id: 'https://storefront.test/openapi.json' });
});
afterAll(async () => {
  await t.server.close();
  await receiver.close();
});

/** Sends a request, checks its answer against the document, and returns its JSON body (if any). */
async function checked(url: string, init: RequestInit & { json?: unknown } = {}, status = 200): Promise<Doc> {
  const response = await t.call(url, init);
  const text = await response.text();
  const observed: Observed = {
    method: init.method ?? 'GET',
    url: response.url,
    status: response.status,
    headers: response.headers,
    text,
  };
  expect(response.status, `${observed.method} ${url}: ${text}`).toBe(status);
  const problems = conformance.problems(observed);
  expect(problems, `${observed.method} ${url}`).toEqual([]);
  return text ? JSON.parse(text) : {};
}

/** Problems of a delivery's body and headers against the `webhooks` entry of `type`. */
function deliveryProblems(type: string, headers: Record<string, unknown>, body: string): string[] {
  const post = document.webhooks[type]?.post;
  if (!post) return [`no webhook ${type}`];
  const problems: string[] = [];
  for (const { $ref } of post.parameters as { $ref: string }[]) {
    const parameter = document.components.parameters[$ref.split('/').pop()!];
    const value = headers[parameter.name];
    if (value === undefined && !parameter.required) continue;
    if (typeof value !== 'string' || !new RegExp(parameter.schema.pattern).test(value)) {
      problems.push(`header ${parameter.name}: ${String(value)}`);
    }
  }
  const ref = post.requestBody.content['application/json'].schema.$ref as string;
  const validate = ajv.getSchema(`https://storefront.test/openapi.json${ref}`)!;
  if (!validate(JSON.parse(body))) problems.push(JSON.stringify(validate.errors));
  return problems;
}

describe('the events and webhook routes, against the document', () => {
  it('documents a POST per event type, with the type’s data, the headers and a 2xx', () => {
    const types = Object.keys(document.webhooks);
    expect(types).toContain('template.updated');
    expect(types).toContain('ping');
    expect(types).toHaveLength(13);
    const post = document.webhooks['template.updated'].post;
    expect(post.responses['2XX']).toBeDefined();
    expect(post.parameters.map((p: { $ref: string }) => p.$ref.split('/').pop())).toEqual([
      'WebhookId',
      'WebhookTimestamp',
      'WebhookSignature',
      'StorefrontRequestId',
    ]);
    // The request id is absent from the deliveries of events no API request caused (a trigger).
    expect(document.components.parameters.StorefrontRequestId).toMatchObject({
      name: 'storefront-request-id',
      required: false,
    });
    expect(document.components.schemas.TemplateUpdatedEvent.allOf[1].properties).toEqual({
      type: { const: 'template.updated' },
      data: { $ref: '#/components/schemas/TemplateEventData' },
    });
    expect(document.components.schemas.TemplateEventData).toBeDefined();
  });

  it('answers every new route as the document says, and delivers as its webhooks say', async () => {
    const root = await checked('/');
    for (const rel of ['svc:events', 'svc:event', 'svc:webhook_endpoints', 'svc:create_webhook_endpoint']) {
      expect(root._links[rel], rel).toBeDefined();
    }
    const endpoint = await checked(
      '/webhook_endpoints',
      { method: 'POST', json: { url: receiver.url, events: ['template.created'], description: 'tests' } },
      201,
    );
    expect(endpoint.secret).toMatch(/^whsec_/);
    await checked('/webhook_endpoints.json');
    await checked(endpoint._links.self.href);
    await checked(endpoint._links['svc:update_webhook_endpoint'].href, {
      method: 'PUT',
      json: { events: ['template.created', 'template.updated'] },
    });
    await checked(endpoint._links['svc:rotate_webhook_secret'].href, { method: 'POST' });

    const theme = await checked('/shops/1/theme.json');
    await checked(
      `/themes/${theme.id}/templates`,
      { method: 'POST', json: { file_name: 'partials/openapi.html', body: '<p>described</p>' } },
      201,
    );
    const events = await checked('/events.json?types=template.created');
    const event = events._embedded.items.at(-1);
    expect(event.type).toBe('template.created');
    await checked(event._links.self.href);

    const ping = await checked(endpoint._links['svc:ping_webhook_endpoint'].href, { method: 'POST' }, 201);
    await t.server.webhooks.drain();
    const deliveries = await checked(endpoint._links['svc:deliveries'].href);
    expect(deliveries._embedded.items.length).toBeGreaterThanOrEqual(2);
    const attempt = await checked(ping._links.self.href);
    await checked(attempt._links['svc:resend_event'].href, { method: 'POST' }, 201);
    await t.server.webhooks.drain();

    const types = receiver.received.map((r) => JSON.parse(r.body).type);
    expect(types).toContain('template.created');
    expect(types).toContain('ping');
    for (const received of receiver.received) {
      const { type } = JSON.parse(received.body);
      expect(deliveryProblems(type, received.headers, received.body), type).toEqual([]);
      // The body is the event as its GET answers it, curies and all, and the document says so.
      expect(JSON.parse(received.body)._links.curies, type).toBeDefined();
      expect(document.webhooks[type].post.requestBody.description, type).toMatch(/`curies` link included/);
    }
    await checked(endpoint._links['svc:delete_webhook_endpoint'].href, { method: 'DELETE' }, 204);
  });
});
