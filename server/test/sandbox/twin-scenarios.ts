/**
 * The MSW mock's token, event and webhook helpers and their twins on the control API: the same cases at each door
 * (the mock's methods in-process; the typed client over HTTP).
 */
import type { SandboxDelivery } from '@storefront-platform/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';

/** One door's helpers, and requests to the API it answers. */
export interface TwinDoor {
  issueToken(options: {
    scope: 'admin' | 'public' | ('admin' | 'public')[];
    user?: string;
  }): Promise<{ accessToken: string; tokenType: string; expiresAt: number; scopes: string[] }>;
  expireToken(token: string): Promise<void>;
  trigger(
    type: 'product.updated' | 'order.created',
    options: { shop: string; set?: Record<string, string> },
  ): Promise<object>;
  deliveries(): Promise<SandboxDelivery[]>;
  drain(): Promise<void>;
  /** `path` of the API's origin. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** A shop of the data, and a user who administers none. */
  shopId(): string;
  /** The sandbox's clock, epoch ms. */
  now(): Promise<number>;
}

const withToken = (door: TwinDoor, path: string, token: string, init: RequestInit = {}) =>
  door.fetch(path, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });

/** Registers the scenarios in the calling `describe`. */
export function twinScenarios(door: () => TwinDoor): void {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('issues a token for a scope and a user, which the API takes until it is expired', async () => {
    const d = door();
    const before = await d.now();
    const issued = await d.issueToken({ scope: ['admin', 'public'] });
    expect(issued).toMatchObject({ tokenType: 'Bearer', scopes: ['admin', 'public'] });
    expect(issued.expiresAt).toBeGreaterThan(before);
    const root = await withToken(d, '/v1/', issued.accessToken);
    expect(root.status).toBe(200);
    expect(root.headers.get('x-oauth-scopes')).toBe('admin,public');
    await d.expireToken(issued.accessToken);
    const expired = await withToken(d, '/v1/', issued.accessToken);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('refuses a token it cannot issue, and expiring one it never issued', async () => {
    const d = door();
    await expect(d.issueToken({ scope: 'root' as 'admin' })).rejects.toThrow(/"scope" is one of admin, public/);
    await expect(d.issueToken({ scope: 'public', user: 'nobody-at-all' })).rejects.toThrow(/no user "nobody-at-all"/);
    await expect(d.expireToken('never-issued-token')).rejects.toThrow(/never issued/);
  });

  it('triggers an event whose webhook a drain delivers, listed among the deliveries', async () => {
    const d = door();
    const { accessToken } = await d.issueToken({ scope: 'admin' });
    const endpoint = await withToken(d, '/v1/webhook_endpoints', accessToken, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['product.updated'] }),
    });
    expect(endpoint.status).toBe(201);
    const event = (await d.trigger('product.updated', { shop: d.shopId(), set: { title: 'Twin' } })) as {
      id: string;
      type: string;
      _links: Record<string, { href: string }>;
    };
    expect(event).toMatchObject({ type: 'product.updated' });
    expect(event._links['svc:subject']?.href).toMatch(/\/v1\/shops\/.+\/products\//);
    await d.drain();
    const made = (await d.deliveries()).filter((delivery) => delivery.event_id === event.id);
    expect(made).toEqual([
      expect.objectContaining({ event_type: 'product.updated', status: 'succeeded', response_status: 204 }),
    ]);
    expect(made[0]!.event).toMatchObject({ id: event.id, type: 'product.updated' });
    expect(receiver.received.some((r) => r.body.includes(event.id))).toBe(true);
  });

  it('refuses a trigger of an unknown type or shop, writing nothing', async () => {
    const d = door();
    await expect(d.trigger('product.exploded' as 'product.updated', { shop: d.shopId() })).rejects.toThrow(
      /product\.exploded/,
    );
    await expect(d.trigger('order.created', { shop: 'no-such-shop' })).rejects.toThrow(/no-such-shop/);
  });
}
