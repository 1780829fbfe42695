/**
 * An event is retried until the endpoint answers 2xx, by whichever series: once a resend, or the original series,
 * is acknowledged, the other series' pending attempts are not sent, and the list says why. Through a real server on
 * port 0, with the retry schedule run on a moved clock.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Doc } from '../themes/fixture.js';
import { useWebhookServer } from './webhook-server.js';

// Tokens outlive the hours the clock is moved by.
const w = useWebhookServer({ tokenTtl: 30 * 86_400 });
let endpoint: Doc;
beforeEach(async () => {
  endpoint = await w.t.json('/webhook_endpoints', { method: 'POST', json: { url: w.receiver.url }, status: 201 });
});

/** The endpoint's attempts, by id. */
async function attempts(): Promise<Map<string, Doc>> {
  const list = await w.t.json(`${endpoint._links['svc:deliveries'].href}?per_page=100`, { status: 200 });
  return new Map((list._embedded.items as Doc[]).map((d) => [d.id, d]));
}

async function ping(): Promise<Doc> {
  return w.t.json(endpoint._links['svc:ping_webhook_endpoint'].href, { method: 'POST', status: 201 });
}

async function resend(delivery: Doc): Promise<Doc> {
  return w.t.json(delivery._links['svc:resend_event'].href, { method: 'POST', status: 201 });
}

/** Moves the clock an hour on and makes whatever falls due: nothing, once the event was acknowledged. */
async function anHourLater(): Promise<void> {
  w.now += 3_600_000;
  await w.t.server.webhooks.drain();
}

function endedBy(delivered: Doc) {
  return {
    status: 'failed',
    error: `Not sent: delivery ${delivered.id} of this event succeeded`,
    response_status: null,
    attempted_on: null,
    next_attempt_on: null,
  };
}

describe('a resend and the series it was made beside', () => {
  it('does not send the original series’ next attempt once the resend was acknowledged', async () => {
    w.receiver.answer = () => ({ status: 500 });
    const first = await ping();
    await w.t.server.webhooks.drain();
    w.now += 10_000;
    await w.t.server.webhooks.drain();
    const third = [...(await attempts()).values()].find((d) => d.attempt === 3)!;
    expect(third).toMatchObject({ status: 'pending' });
    w.receiver.answer = () => ({ status: 204 });
    const resent = await resend(first);
    await w.t.server.webhooks.drain();
    await anHourLater();
    expect(w.receiver.received).toHaveLength(3);
    const list = await attempts();
    expect(list.get(resent.id)).toMatchObject({ status: 'succeeded', response_status: 204 });
    expect(list.get(third.id)).toMatchObject(endedBy(resent));
    expect(list.size).toBe(4);
  });

  it('does not send the resend’s next attempt once the original series was acknowledged', async () => {
    w.receiver.answer = () => ({ status: 500 });
    const first = await ping();
    await w.t.server.webhooks.drain();
    // The resend's retry falls due after the original's (in about 5 s).
    w.receiver.answer = () => ({ status: 503, headers: { 'retry-after': '1800' } });
    const resent = await resend(first);
    await w.t.server.webhooks.drain();
    const retry = [...(await attempts()).values()].find((d) => Number(d.id) > Number(resent.id))!;
    expect(retry).toMatchObject({ attempt: 2, status: 'pending' });
    w.receiver.answer = () => ({ status: 204 });
    w.now += 10_000;
    await w.t.server.webhooks.drain();
    await anHourLater();
    expect(w.receiver.received).toHaveLength(3);
    const list = await attempts();
    const delivered = [...list.values()].find((d) => d.status === 'succeeded')!;
    expect(delivered).toMatchObject({ attempt: 2, response_status: 204 });
    expect(list.get(retry.id)).toMatchObject(endedBy(delivered));
  });

  it('records what an attempt in flight meanwhile was answered, and does not retry it', async () => {
    let release!: () => void;
    const held = new Promise<{ status: number }>((resolve) => {
      release = () => resolve({ status: 500 });
    });
    w.receiver.answer = () => held;
    const first = await ping();
    await w.receiver.until(1);
    w.receiver.answer = () => ({ status: 204 });
    const resent = await resend(first);
    await w.receiver.until(2);
    await expect.poll(async () => (await attempts()).get(resent.id)?.status).toBe('succeeded');
    release();
    await w.t.server.webhooks.drain();
    await anHourLater();
    expect(w.receiver.received).toHaveLength(2);
    const list = await attempts();
    expect(list.get(first.id)).toMatchObject({ status: 'failed', response_status: 500, next_attempt_on: null });
    expect(list.get(first.id)!.attempted_on).not.toBeNull();
    expect(list.size).toBe(2);
  });

  it('sends a resend asked for after the event was acknowledged', async () => {
    const first = await ping();
    await w.t.server.webhooks.drain();
    const resent = await resend(first);
    await w.t.server.webhooks.drain();
    expect(w.receiver.received).toHaveLength(2);
    expect((await attempts()).get(resent.id)).toMatchObject({ status: 'succeeded' });
  });
});
