/**
 * An app that receives the sandbox's webhooks: a node:http server that verifies each delivery's Standard Webhooks
 * signature (a few lines of node:crypto; `@storefront-platform/sdk/webhooks` will do it once released), dedupes on
 * `webhook-id`, and answers 204. It registers its endpoint (the secret is shown once), makes a write (a theme
 * renamed), waits for that write's event, then deletes its endpoint.
 *
 *   npm run example -- webhooks-receiver [--port 3000] [--public-host 127.0.0.1]
 *
 * With `storefront-server listen --forward-to http://127.0.0.1:3000/webhooks --secret …` in place of the endpoint,
 * the same handler receives a shared sandbox's events without a tunnel (docs/server.md, "Webhooks").
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type { ExampleOptions } from '../shared/options.js';

export interface WebhooksReceiverOptions extends ExampleOptions {
  /** Port of the receiver. Default 0 (a free one). */
  port?: number;
}

export interface WebhooksReceiverResult {
  /** The events received and verified, in order. */
  received: { id: string; type: string }[];
  /** Deliveries refused for a bad signature or a stale timestamp. */
  refused: number;
}

export const description = 'an app receiving the sandbox’s webhooks, verified per Standard Webhooks';

/** How old a delivery's timestamp may be (the Standard's recommendation): older is a replay. */
const TOLERANCE_S = 5 * 60;

/** Whether `signature` (one or more `v1,…`) signs `{id}.{timestamp}.{body}` with `secret` (`whsec_…`). */
export function verify(secret: string, headers: IncomingMessage['headers'], body: string, nowS = Date.now() / 1000) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowS - Number(timestamp)) > TOLERANCE_S) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signature.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export async function main(options: WebhooksReceiverOptions): Promise<WebhooksReceiverResult> {
  const log = options.log ?? console.log;
  const tokenAnswer = await fetch(`${options.authUrl}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      scope: 'admin',
      client_id: options.clientId,
      client_secret: options.clientSecret,
    }),
  });
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  const api = async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const response = await fetch(path.startsWith('http') ? path : `${options.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>);
  };

  let secret = '';
  const result: WebhooksReceiverResult = { received: [], refused: 0 };
  const seen = new Set<string>();
  let arrived: (event: { id: string; type: string; data: Record<string, unknown> }) => void = () => {};
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'POST' || req.url !== '/webhooks') return void res.writeHead(404).end();
      if (!verify(secret, req.headers, body)) {
        result.refused++;
        log(`refused a delivery: bad signature or stale timestamp`);
        return void res.writeHead(401).end();
      }
      const event = JSON.parse(body) as { id: string; type: string; data: Record<string, unknown> };
      res.writeHead(204).end();
      // At least once: a repeat (a retry, a resend) is acknowledged and ignored.
      if (seen.has(event.id)) return;
      seen.add(event.id);
      result.received.push({ id: event.id, type: event.type });
      log(`received ${event.type} ${event.id} (verified)`);
      arrived(event);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  let endpoint: Record<string, unknown> | undefined;
  try {
    endpoint = await api('/webhook_endpoints', {
      method: 'POST',
      json: { url, events: ['theme.updated'], description: 'examples/webhooks-receiver' },
    });
    secret = endpoint!.secret as string;
    log(`endpoint ${endpoint!.id} → ${url} (its secret is shown once: kept in memory)`);
    const theme = (await api('/shops/1/theme.json'))!;
    const title = `Renamed at ${new Date().toISOString()}`;
    const event = new Promise<{ data: Record<string, unknown> }>((resolve) => {
      arrived = (e) => {
        if (e.type === 'theme.updated' && e.data.title === title) resolve(e);
      };
    });
    await api(`/themes/${theme.id}`, { method: 'PUT', json: { title } });
    log(`renamed theme ${theme.id}; waiting for its event`);
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('no webhook within 10 s')), 10_000).unref(),
    );
    const received = await Promise.race([event, timeout]);
    log(`theme ${received.data.id} is now "${received.data.title}"`);
    return result;
  } finally {
    if (endpoint) await api(`/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' }).catch(() => undefined);
    await new Promise((resolve) => receiver.close(resolve));
  }
}

export function fromArgs(args: string[]): { port?: number } {
  const { values } = parseArgs({ args, options: { port: { type: 'string' } }, strict: true });
  return values.port === undefined ? {} : { port: Number(values.port) };
}
