/**
 * The explorer's forms over the webhook relations: what its dialogs start from is what the server takes (an
 * endpoint's `events` array sent as an array), and the writes that take no body send none.
 */
import type { Entity } from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { Api, type Outcome } from '../../src/explorer/page/api.js';
import { prefilledBody } from '../../src/explorer/page/bodies.js';
import { hiddenByScope } from '../../src/explorer/page/scope-notes.js';
import { useThemeServer } from '../themes/fixture.js';

const t = useThemeServer();

function shown(outcome: Outcome): Entity {
  if (outcome.kind !== 'entity') {
    const why = outcome.kind === 'error' ? outcome.error : outcome;
    throw new Error(
      `expected a resource, got ${outcome.kind}: ${why instanceof Error ? why.message : JSON.stringify(why)}`,
    );
  }
  return outcome.entity;
}

/** Follows `rel` of `entity` as its dialog would, with the prefilled body changed by `edit`. */
function submit(api: Api, entity: Entity, rel: string, method: string, edit: object = {}): Promise<Outcome> {
  const body = prefilledBody(rel, method, entity.properties as Record<string, unknown>);
  return api.follow(entity, rel, body === null ? undefined : { ...body, ...edit });
}

describe('the explorer on webhook endpoints', () => {
  it('creates, updates, pings and rotates from the prefilled forms', async () => {
    const api = new Api(t.base, t.admin);
    const root = shown(await api.open(t.base));
    for (const rel of ['svc:events', 'svc:event', 'svc:webhook_endpoints', 'svc:create_webhook_endpoint']) {
      expect(root.links.has(rel), rel).toBe(true);
    }
    expect(hiddenByScope(root, ['admin'])).toEqual([]);

    const created = shown(
      await submit(api, root, 'svc:create_webhook_endpoint', 'POST', {
        url: 'http://localhost:9/explorer',
        events: ['template.created', 'template.updated'],
      }),
    );
    expect(created.properties).toMatchObject({
      url: 'http://localhost:9/explorer',
      events: ['template.created', 'template.updated'],
      status: 'enabled',
    });
    expect(created.properties.secret).toMatch(/^whsec_/);

    // Opened as its `self` (the answer that carries the secret has an ETag no GET answers: see the last test).
    const opened = shown(await api.follow(created, 'self'));
    const updated = shown(
      await submit(api, opened, 'svc:update_webhook_endpoint', 'PUT', { events: ['*'], status: 'disabled' }),
    );
    expect(updated.properties).toMatchObject({ events: ['*'], status: 'disabled', url: 'http://localhost:9/explorer' });
    // Unchanged, the prefilled form is a valid update too.
    shown(await submit(api, updated, 'svc:update_webhook_endpoint', 'PUT'));

    const ping = shown(await submit(api, updated, 'svc:ping_webhook_endpoint', 'POST'));
    expect(ping._class).toEqual(['webhookDelivery']);
    expect(ping.properties.event_type).toBe('ping');
    const rotated = shown(await submit(api, updated, 'svc:rotate_webhook_secret', 'POST'));
    expect(rotated.properties.secret).toMatch(/^whsec_/);
    const deliveries = shown(await api.follow(rotated, 'svc:deliveries'));
    expect(deliveries.embedded('items').length).toBeGreaterThanOrEqual(1);
    await api.follow(rotated, 'svc:delete_webhook_endpoint');
  });

  // The create and rotate answers show the secret, yet carry the endpoint's own ETag (what a GET answers): an
  // If-Match taken from them holds.
  it('updates straight from the create’s answer (its ETag is the endpoint’s)', async () => {
    const api = new Api(t.base, t.admin);
    const root = shown(await api.open(t.base));
    const created = shown(
      await submit(api, root, 'svc:create_webhook_endpoint', 'POST', { url: 'http://localhost:9/guarded' }),
    );
    const outcome = await submit(api, created, 'svc:update_webhook_endpoint', 'PUT', { description: 'at once' });
    expect(outcome.answer?.status).toBe(200);
    await api.follow(shown(await api.follow(created, 'self')), 'svc:delete_webhook_endpoint');
  });

  it('says which root links a public token does not see', async () => {
    const api = new Api(t.base, t.publicToken);
    const root = shown(await api.open(t.base));
    expect(hiddenByScope(root, ['public'])).toEqual(
      expect.arrayContaining(['svc:events', 'svc:webhook_endpoints', 'svc:create_webhook_endpoint']),
    );
  });
});
