/**
 * `storefront-server listen --forward-to URL`: webhooks to an app under development without a tunnel. It connects
 * outbound to a server (this machine's or a shared sandbox), reads the event list with long-polling from the
 * moment it starts, and POSTs each event to the local URL as the server's deliveries are made (the same body and
 * Standard Webhooks headers), signed with a secret of its own, printing one line per delivery. Nothing on the
 * server changes: no endpoint is registered, so nothing is left behind when it stops, and no inbound connection
 * is needed. Exit codes: 0 on Ctrl-C (SIGINT/SIGTERM), 1 when the server refuses the credentials or the events
 * asked for, 2 for bad flags.
 */

import { newWebhookSecret } from './api/events/record.js';
import { readCommandArgs } from './command-args.js';
import { isSaneRequestId } from './core/request-id.js';
import { pause } from './shared/pause.js';
import { REQUEST_ID_HEADER } from './webhooks/deliverer.js';
import { signatureHeader } from './webhooks/signature.js';

const USAGE = `Usage: storefront-server listen --forward-to URL [--server URL] [--events TYPES]
                        [--client-id ID --client-secret SECRET] [--secret whsec_...]
                        [--print-secret]

Forwards the events of a server (this machine's or a shared sandbox: only an
outbound connection is needed) to your app, signed per Standard Webhooks with a
secret of its own, one line per delivery. Events written from the moment it
starts are forwarded, oldest first.

  --forward-to URL       where your app receives webhooks, e.g.
                         http://127.0.0.1:3000/webhooks
  --server URL           the server's origin (default http://127.0.0.1:4000;
                         also STOREFRONT_SERVER)
  --client-id ID         an app's credentials (the demo app's are printed by
  --client-secret S      storefront-server at start; also
                         STOREFRONT_CLIENT_ID / STOREFRONT_CLIENT_SECRET)
  --events TYPES         comma-separated event types (default: all)
  --secret whsec_...     sign with this secret (default: a new one per run;
                         also STOREFRONT_WEBHOOK_SECRET)
  --print-secret         print the secret, for your app to verify with
  --help                 show this help
`;

/** The long-poll the server holds open when nothing is new (it allows 30 s). */
const WAIT_S = 25;
/** Retries of a failed forward, after these pauses. */
const RETRY_MS = [500, 1000, 2000, 4000];
/** A forward that has no answer after this long failed (as the server's deliveries). */
const FORWARD_TIMEOUT_MS = 15_000;

interface FeedEvent {
  id: string;
  type: string;
  created_on: string;
  [member: string]: unknown;
}

class Stopped extends Error {}

/** Prints with no stack: what went wrong and how to go on. */
class ListenError extends Error {}

/** Waits `ms`; rejects with {@link Stopped} once `signal` aborts, which ends the loops below. */
async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  await pause(ms, signal);
  if (signal.aborted) throw new Stopped();
}

function clockTime(ms = Date.now()): string {
  return new Date(ms).toISOString().slice(11, 23);
}

/**
 * Why a request got no answer: fetch's own message is "fetch failed", its cause says what (ECONNREFUSED …); a name
 * with several addresses (localhost: ::1 and 127.0.0.1) fails with an AggregateError of one per address. (The themes
 * CLI words these in `networkReason`; the architecture keeps that CLI to the SDK's public entries, and this server
 * cannot import the CLI.)
 */
function reason(error: unknown): string {
  let cause = (error as Error).cause ?? error;
  if (cause instanceof AggregateError && cause.errors[0]) cause = cause.errors[0];
  return (cause as Error).message || String((cause as { code?: unknown }).code ?? cause);
}

export interface ListenOptions {
  server: string;
  forwardTo: string;
  clientId: string;
  clientSecret: string;
  secret: string;
  events?: string[];
  signal: AbortSignal;
  print: (line: string) => void;
}

/** Reads the server's events from now on and forwards each; resolves when `signal` aborts. */
export async function listen(options: ListenOptions): Promise<void> {
  const { signal, print } = options;
  const origin = new URL(options.server).origin;
  const base = `${origin}/v1`;
  let token: string | undefined;

  async function getToken(): Promise<string> {
    const response = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'admin',
        client_id: options.clientId,
        client_secret: options.clientSecret,
      }),
      signal,
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: string; error_description?: string };
    if (!response.ok || !body.access_token) {
      throw new ListenError(
        `${origin}/oauth/token refused the credentials (${response.status} ${body.error_description ?? ''}):` +
          ' give an app’s --client-id and --client-secret (the server prints its demo app’s at start)',
      );
    }
    return body.access_token;
  }

  /** One page of the event list after `after`; `wait` seconds of long-polling. Retries while the server is away. */
  async function page(after: string | undefined, wait: number): Promise<FeedEvent[]> {
    const query = new URLSearchParams({ per_page: '100', wait: String(wait) });
    if (after) query.set('after', after);
    if (options.events) query.set('types', options.events.join(','));
    let pause = 500;
    for (;;) {
      let response: Response;
      try {
        // In the try: a server not up yet (started beside this command) is waited for as one that went away.
        token ??= await getToken();
        response = await fetch(`${base}/events.json?${query}`, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/hal+json' },
          signal: AbortSignal.any([signal, AbortSignal.timeout((wait + 10) * 1000)]),
        });
      } catch (error) {
        if (signal.aborted) throw new Stopped();
        if (error instanceof ListenError) throw error;
        print(`${clockTime()}  ${origin} unreachable (${reason(error)}); retrying in ${pause / 1000} s`);
        await sleep(pause, signal);
        pause = Math.min(pause * 2, 10_000);
        continue;
      }
      if (response.status === 401) {
        token = undefined; // expired: a new one
        await response.body?.cancel();
        continue;
      }
      const body = (await response.json().catch(() => undefined)) as
        | { _embedded?: { items?: FeedEvent[] }; _links?: { curies?: unknown }; message?: string }
        | undefined;
      if (response.status >= 500 || body === undefined) {
        print(`${clockTime()}  ${base}/events.json answered ${response.status}; retrying in ${pause / 1000} s`);
        await sleep(pause, signal);
        pause = Math.min(pause * 2, 10_000);
        continue;
      }
      if (!response.ok) {
        throw new ListenError(`${base}/events.json answered ${response.status}: ${body.message ?? ''}`);
      }
      // Each event as `GET svc:event` answers it, and as the server's deliveries carry it: the page's curies lead
      // its links (an embedded item inherits them).
      const curies = body._links?.curies;
      return (body._embedded?.items ?? []).map((item) =>
        curies ? { ...item, _links: { curies, ...(item._links as object) } } : item,
      );
    }
  }

  async function forward(event: FeedEvent): Promise<void> {
    const body = `${JSON.stringify(event)}\n`;
    for (let attempt = 1; ; attempt++) {
      const timestamp = Math.floor(Date.now() / 1000);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'storefront-server-listen',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': await signatureHeader([options.secret], event.id, timestamp, body),
      };
      // As the server's deliveries name the write; checked, as it comes from another server, before it is a header.
      const requestId = event.request_id;
      if (typeof requestId === 'string' && isSaneRequestId(requestId)) headers[REQUEST_ID_HEADER] = requestId;
      const started = performance.now();
      let outcome: string;
      let ok = false;
      try {
        const response = await fetch(options.forwardTo, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
        });
        await response.body?.cancel();
        ok = response.ok;
        outcome = String(response.status);
      } catch (error) {
        if (signal.aborted) throw new Stopped();
        outcome = `failed (${reason(error)})`;
      }
      const duration = Math.round(performance.now() - started);
      const retry = !ok && attempt <= RETRY_MS.length ? RETRY_MS[attempt - 1] : undefined;
      const note = ok
        ? ` (${Date.now() - Date.parse(event.created_on)} ms after the event)`
        : retry !== undefined
          ? `, retrying in ${retry / 1000} s`
          : `, given up after ${attempt} attempts`;
      print(
        `${clockTime()}  ${event.type}  ${event.id}  → ${outcome}  ${duration} ms${attempt > 1 ? ` attempt ${attempt}` : ''}${note}`,
      );
      if (ok || retry === undefined) return;
      await sleep(retry, signal);
    }
  }

  try {
    // From now on: past events are skipped by reading to the end of the list.
    let after: string | undefined;
    for (;;) {
      const events = await page(after, 0);
      if (events.length === 0) break;
      after = events.at(-1)!.id;
    }
    print(
      `Ready: forwarding ${options.events?.join(', ') ?? 'all events'} of ${origin} to ${options.forwardTo} (Ctrl-C to stop)`,
    );
    for (;;) {
      const events = await page(after, WAIT_S);
      for (const event of events) {
        await forward(event);
        after = event.id;
      }
    }
  } catch (error) {
    if (error instanceof Stopped || signal.aborted) return;
    throw error;
  }
}

export async function runListen(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = readCommandArgs('listen', USAGE, argv, {
    'forward-to': { type: 'string' },
    server: { type: 'string' },
    events: { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    secret: { type: 'string' },
    'print-secret': { type: 'boolean' },
  });
  if (typeof args === 'number') return args;
  const { values } = args;
  const usage = (message: string) => {
    console.error(`storefront-server listen: ${message}\nRun storefront-server listen --help for the options.`);
    return 2;
  };
  const forwardTo = values['forward-to'];
  if (!forwardTo || !/^https?:$/.test(URL.canParse(forwardTo) ? new URL(forwardTo).protocol : '')) {
    return usage('--forward-to needs your app’s http(s) URL, e.g. http://127.0.0.1:3000/webhooks');
  }
  const server = values.server ?? env.STOREFRONT_SERVER ?? 'http://127.0.0.1:4000';
  if (!URL.canParse(server) || !/^https?:$/.test(new URL(server).protocol)) {
    return usage(`--server must be an http(s) URL, got "${server}"`);
  }
  const clientId = values['client-id'] ?? env.STOREFRONT_CLIENT_ID;
  const clientSecret = values['client-secret'] ?? env.STOREFRONT_CLIENT_SECRET;
  if (!clientId || !clientSecret) {
    return usage(
      '--client-id and --client-secret are needed (an app of the server, with an admin token: storefront-server prints its demo app’s at start)',
    );
  }
  const given = values.secret ?? env.STOREFRONT_WEBHOOK_SECRET;
  const secret = given ?? newWebhookSecret();
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) return usage('--secret must be whsec_ followed by base64');
  const events = values.events
    ?.split(',')
    .map((type) => type.trim())
    .filter(Boolean);
  if (values['print-secret']) console.log(`Secret: ${secret}`);
  else if (given)
    console.log(`Signing with the secret given (${values.secret ? '--secret' : 'STOREFRONT_WEBHOOK_SECRET'})`);
  else console.log('Signing with a new secret (--print-secret shows it; --secret fixes it)');
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await listen({
      server,
      forwardTo,
      clientId,
      clientSecret,
      secret,
      ...(events && events.length > 0 ? { events } : {}),
      signal: stop.signal,
      print: (line) => console.log(line),
    });
    console.log('Stopped.');
    return 0;
  } catch (error) {
    console.error(`storefront-server listen: ${(error as Error).message}`);
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
