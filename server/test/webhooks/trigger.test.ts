import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TriggerError } from '../../src/api/events/trigger.js';
import { type Doc, startThemeServer, type ThemeServer } from '../themes/fixture.js';
import { type Receiver, startReceiver } from './receiver.js';

let t: ThemeServer;
let receiver: Receiver;
let secret: string;

beforeAll(async () => {
  t = await startThemeServer();
  receiver = await startReceiver();
  const endpoint = await t.json<Doc>('/webhook_endpoints', {
    method: 'POST',
    json: { url: receiver.url, events: ['product.created', 'product.updated', 'order.created', 'order.updated'] },
    status: 201,
  });
  secret = endpoint.secret;
});
afterAll(async () => {
  await t.server.close();
  await receiver.close();
});
beforeEach(() => {
  receiver.received.length = 0;
});

/** The delivered event, verified with the Standard's reference library. */
async function delivered(): Promise<Doc> {
  await t.server.webhooks.drain();
  expect(receiver.received).toHaveLength(1);
  const [delivery] = receiver.received;
  return new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as Doc;
}

describe('server.trigger', () => {
  it('creates a real order whose GET agrees with the event (etag, total), delivered signed', async () => {
    const event = await t.server.trigger('order.created', { shop: 'northwind', set: { total: '0' } });
    expect(event.type).toBe('order.created');
    expect(event.shop_id).toBe('1');
    expect(event.data).toMatchObject({ total: 0, status: 'open', currency_code: 'GBP' });
    const verified = await delivered();
    expect(verified.id).toBe(event.id);
    const href = verified._links['svc:subject'].href as string;
    const conditional = await t.call(href, { headers: { 'if-none-match': verified.data.etag } });
    expect(conditional.status).toBe(304);
    const order = await t.json(href, { status: 200 });
    expect(order).toMatchObject({ id: event.data.id, total: 0, code: event.data.code });
    expect(order._embedded.line_items).toHaveLength(1);
  });

  it('updates the shop’s newest product, or the one named, and the event is the GET’s state', async () => {
    const id = t.server.store.where('products', 'shop_id', '1')[1]!.id;
    const event = await t.server.trigger('product.updated', {
      shop: 'Northwind Outfitters',
      id,
      set: { price: '1999', title: 'Renamed', tags: 'a, b' },
    });
    expect(event.data).toMatchObject({ id, price: 1999, title: 'Renamed' });
    const verified = await delivered();
    const product = await t.json(verified._links['svc:subject'].href, { status: 200 });
    expect(product).toMatchObject({ id, price: 1999, title: 'Renamed', tags: ['a', 'b'] });
    const again = await t.call(verified._links['svc:subject'].href, {
      headers: { 'if-none-match': verified.data.etag },
    });
    expect(again.status).toBe(304);
  });

  it('creates a product by shop id, its fields overridden', async () => {
    const event = await t.server.trigger('product.created', {
      shop: '2',
      set: { title: 'Trigger Pan', status: 'hidden' },
    });
    expect(event.data).toMatchObject({ title: 'Trigger Pan', status: 'hidden' });
    expect(event.data.slug).toBe(`trigger-pan-${event.data.id}`);
    await delivered();
    expect(t.server.store.get('products', event.data.id as string)?.title).toBe('Trigger Pan');
  });

  it('refuses a field that does not exist, naming the valid ones, and writes nothing', async () => {
    const events = t.server.store.all('events').length;
    const refused = t.server.trigger('order.created', { shop: 'northwind', set: { amount: '5' } });
    await expect(refused).rejects.toThrow(TriggerError);
    // In words of the call, not of the command line's flag.
    await expect(refused).rejects.toThrow(
      /^orders have no field "amount"; the fields you can set: status, code, total/,
    );
    await expect(t.server.trigger('order.updated', { shop: 'northwind', set: { status: 'lost' } })).rejects.toThrow(
      /must be one of open, pending, paid, shipped, closed, cancelled/,
    );
    await expect(t.server.trigger('order.created', { shop: 'northwind', set: { total: '3.50' } })).rejects.toThrow(
      /whole number of cents/,
    );
    await expect(t.server.trigger('order.created', { shop: 'nowhere' })).rejects.toThrow(
      /no shop "nowhere"; the shops: northwind/,
    );
    await expect(t.server.trigger('invoice.paid' as 'order.created', { shop: 'northwind' })).rejects.toThrow(
      /the types you can trigger/,
    );
    expect(t.server.store.all('events')).toHaveLength(events);
  });

  it('creates rows with the store’s ids: never the id of a deleted row, the slug and SKU after it', async () => {
    const { store } = t.server;
    const newest = store.all('products').at(-1)!;
    await store.write((tx) => tx.delete('products', newest.id));
    const event = await t.server.trigger('product.created', { shop: newest.shop_id });
    await t.server.webhooks.drain();
    const created = store.get('products', event.data.id as string)!;
    expect(created.id).not.toBe(newest.id);
    expect(Number(created.id)).toBeGreaterThan(Number(newest.id));
    expect(created.slug).toBe(`sandbox-trigger-product-${created.id}`);
    expect(created.variants[0]!.sku).toBe(`TRIGGER-${created.id}-1`);
  });
});
