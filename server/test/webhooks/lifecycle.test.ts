/**
 * What a webhook endpoint lives through on the server: `Retry-After` waited for, `410 Gone` disabling at once, an
 * endpoint disabled and enabled by its app, quiet days not counted toward the 5 days of failures that disable it,
 * attempts in flight bounded whatever the receiver does, and events pruned with their attempts after 30 days.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Doc } from '../themes/fixture.js';
import { useWebhookServer } from './webhook-server.js';

const w = useWebhookServer({ tokenTtl: 60 * 86_400, webhooks: { concurrency: 3 } });

async function withEndpoint(run: (endpoint: Doc) => Promise<void>): Promise<void> {
  const endpoint = await w.t.json('/webhook_endpoints', {
    method: 'POST',
    json: { url: w.receiver.url, events: ['theme.updated'] },
    status: 201,
  });
  try {
    await run(endpoint);
  } finally {
    await w.t.call(endpoint._links.self.href, { method: 'DELETE' });
  }
}

const rename = (title: string) => w.t.json('/themes/1', { method: 'PUT', json: { title }, status: 200 });
const attempts = async (endpoint: Doc): Promise<Doc[]> =>
  (await w.t.json(`${endpoint._links['svc:deliveries'].href}?per_page=100`))._embedded.items;

describe('a webhook endpoint’s life on the server', () => {
  it('waits for a Retry-After longer than the schedule’s delay', async () => {
    await withEndpoint(async (endpoint) => {
      w.receiver.answer = () => ({ status: 503, headers: { 'retry-after': '600' } });
      await rename('Busy');
      await w.t.server.webhooks.drain();
      const [second, first] = await attempts(endpoint);
      expect(first).toMatchObject({ attempt: 1, status: 'failed', response_status: 503 });
      // The schedule says 5 s; the receiver asked for 10 minutes.
      expect(Date.parse(second!.next_attempt_on) - w.now).toBe(600_000);
      w.receiver.answer = () => ({ status: 204 });
      w.now += 300_000;
      await w.t.server.webhooks.drain();
      expect(w.receiver.received).toHaveLength(1);
      w.now += 300_000;
      await w.t.server.webhooks.drain();
      expect(w.receiver.received).toHaveLength(2);
      expect((await attempts(endpoint))[0]).toMatchObject({ attempt: 2, status: 'succeeded' });
    });
  });

  it('is disabled at once by 410 Gone, sent nothing while disabled, and sent again once enabled', async () => {
    await withEndpoint(async (endpoint) => {
      w.receiver.answer = () => ({ status: 410 });
      await rename('Gone');
      await w.t.server.webhooks.drain();
      const gone = await w.t.json(endpoint._links.self.href);
      expect(gone).toMatchObject({ status: 'disabled', disabled_reason: 'The endpoint answered 410 Gone' });
      expect(await attempts(endpoint)).toHaveLength(1);
      await rename('While disabled');
      await w.t.server.webhooks.drain();
      expect(w.receiver.received).toHaveLength(1);

      w.receiver.answer = () => ({ status: 204 });
      const enabled = await w.t.json(endpoint._links.self.href, {
        method: 'PUT',
        json: { status: 'enabled' },
        status: 200,
      });
      expect(enabled).toMatchObject({ status: 'enabled', disabled_reason: null });
      await rename('Enabled again');
      await w.t.server.webhooks.drain();
      expect(w.receiver.received.map((r) => JSON.parse(r.body).data.title)).toEqual(['Gone', 'Enabled again']);
    });
  });

  it('counts the 5 days that disable an endpoint only while attempts are being made: quiet days do not', async () => {
    await withEndpoint(async (endpoint) => {
      w.receiver.answer = () => ({ status: 500 });
      await rename('Failed for good');
      await w.t.server.webhooks.drain();
      // The event's whole series fails: its 8 attempts, about 28 hours (more, made on the hour).
      for (let hour = 0; hour < 48; hour++) {
        w.now += 3_600_000;
        await w.t.server.webhooks.drain();
      }
      const series = await attempts(endpoint);
      expect(series.map((a) => `${a.attempt} ${a.status}`)).toEqual([8, 7, 6, 5, 4, 3, 2, 1].map((n) => `${n} failed`));
      // Six days without an event, then one whose first attempt meets a passing outage.
      w.now += 6 * 86_400_000;
      w.receiver.answer = () => ({ status: 503 });
      await rename('After a quiet week');
      await w.t.server.webhooks.drain();
      expect(await w.t.json(endpoint._links.self.href)).toMatchObject({ status: 'enabled', disabled_reason: null });
      const [retry, failed] = await attempts(endpoint);
      expect(failed).toMatchObject({ attempt: 1, status: 'failed', response_status: 503 });
      expect(retry).toMatchObject({ attempt: 2, status: 'pending' });
      w.receiver.answer = () => ({ status: 204 });
      w.now += 10_000;
      await w.t.server.webhooks.drain();
      expect((await attempts(endpoint))[0]).toMatchObject({ attempt: 2, status: 'succeeded' });
    });
  });

  it('makes at most its concurrency of attempts at once, however slow the receiver', async () => {
    let inFlight = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    // The receiver answers only when the test lets it: attempts would pile up, if the loop let them.
    const slow = await startSlowReceiver((release) => {
      inFlight++;
      most = Math.max(most, inFlight);
      releases.push(() => {
        inFlight--;
        release();
      });
    });
    const endpoint = await w.t.json('/webhook_endpoints', {
      method: 'POST',
      json: { url: slow.url, events: ['theme.updated'] },
      status: 201,
    });
    try {
      for (let n = 0; n < 10; n++) await rename(`Slow ${n}`);
      const drained = w.t.server.webhooks.drain();
      for (let released = 0; released < 10; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        for (; releases.length; released++) releases.shift()!();
      }
      await drained;
      expect(most).toBe(3);
      expect((await attempts(endpoint)).filter((a) => a.status === 'succeeded')).toHaveLength(10);
    } finally {
      await w.t.call(endpoint._links.self.href, { method: 'DELETE' });
      slow.close();
    }
  });

  it('prunes events older than 30 days, with their attempts', async () => {
    await withEndpoint(async (endpoint) => {
      await rename('Old');
      await w.t.server.webhooks.drain();
      const old = JSON.parse(w.receiver.received[0]!.body).id as string;
      expect((await w.t.call(`/events/${old}.json`)).status).toBe(200);
      w.now += 31 * 86_400_000;
      await rename('New');
      await w.t.server.webhooks.drain();
      expect((await w.t.call(`/events/${old}.json`)).status).toBe(404);
      expect((await attempts(endpoint)).map((a) => a.event_id)).not.toContain(old);
    });
  });
});

/** A receiver that holds each request until `onRequest`'s release is called. */
async function startSlowReceiver(onRequest: (release: () => void) => void) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => onRequest(() => res.writeHead(204).end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/slow`, close: () => server.close() };
}
