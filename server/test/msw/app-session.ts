/**
 * A recorded app session, replayed against the mock: the same 30 requests of an app (writes, then reads that see
 * them) made through the SDK against a reference server over a data directory, and against
 * `createHandlers({ data: await readDataset(dir) })` over the same starting data; their answers are compared
 * modulo what is volatile. {@link compareServerAndMock} takes any data directory (a seeded one here, an imported
 * shop's later) and the credentials that sign in to it.
 *
 * Not through the contract suite's `Session` (`test/contract/session.ts`), tried: its masking knows the answer's
 * own request id and the secrets it saw, while this session's event list repeats earlier answers' request ids and
 * carries, as `data.etag`, the validator of a development theme whose preview key is drawn at random.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Client, createClient, HttpError, password } from '@storefront-platform/sdk';
import { createServer, type Dataset, readDataset } from '@storefront-platform/server';
import { createHandlers } from '@storefront-platform/server/msw';
import { setupServer } from 'msw/node';

/** Who the session signs in as: the data's app, and a user of it with a password. */
export interface SessionCredentials {
  clientId: string;
  clientSecret: string;
  login: string;
  password: string;
}

/** One answer, as recorded: the request it answers, its status, the headers that matter, and its body. */
export interface RecordedAnswer {
  request: string;
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, a text, or `sha256:<hex>` of other bytes. */
  body: unknown;
}

/**
 * Headers that an app's behaviour depends on. Left out: `date`, `x-request-id` (per request), `vary`,
 * `content-length` and `content-encoding` (the server's gzip shell, absent from the mock: docs/msw.md), `etag`
 * values (compared by kind only: weak or strong).
 */
const HEADERS = [
  'content-type',
  'cache-control',
  'location',
  'last-modified',
  'etag',
  'www-authenticate',
  'allow',
  'retry-after',
  'ratelimit',
];

/** A `fetch` that records every answer, for the SDK's `fetch` option. */
export function recordingFetch(answers: Promise<RecordedAnswer>[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    answers.push(recorded(request, response.clone()));
    return response;
  };
}

async function recorded(request: Request, response: Response): Promise<RecordedAnswer> {
  const headers: Record<string, string> = {};
  for (const name of HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const type = response.headers.get('content-type') ?? '';
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  const body = /json/.test(type)
    ? JSON.parse(text)
    : /^text\//.test(type)
      ? text
      : bytes.length
        ? `sha256:${createHash('sha256').update(bytes).digest('hex')}`
        : '';
  const url = new URL(request.url);
  return {
    request: `${request.method} ${url.origin}${url.pathname}${url.search}`,
    status: response.status,
    headers,
    body,
  };
}

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** The status of a request the SDK rejected with an HTTP error (recorded all the same). */
async function failing(request: Promise<unknown>): Promise<number> {
  try {
    await request;
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/**
 * The app's session, 30 requests: sign in and three reads to reach the theme; 8 writes (a template added and
 * changed, an asset uploaded, a development theme made and renamed, a refused write, a template deleted, the
 * production theme renamed); then 18 reads that see them (the theme twice, the second a 304 from the SDK's cache,
 * the development theme, the template, the asset's bytes, the preview, products over two pages, one product, a
 * search, orders, one order, the events and what one is about, a 404, public shops, webhook endpoints, the root).
 * `shopId` is a shop the user administers.
 */
export async function appSession(client: Client, shopId: string): Promise<void> {
  const root = await client.root();
  const shop = await root.follow('svc:shop', { id: shopId });
  let theme = await shop.follow('svc:theme');
  const created = await theme.follow('svc:create_template', {
    file_name: 'partials/replayed.html',
    body: '<p>recorded</p>',
  });
  await theme.follow('svc:create_theme_asset', { file_name: 'images/replayed.png', data: PNG });
  const dev = await theme.follow('svc:create_dev_theme');
  await dev.follow('svc:update_theme', { title: 'Replayed development' });
  await created.follow('svc:update_template', { body: '<p>recorded, then changed</p>' });
  await failing(theme.follow('svc:create_template', { file_name: '../outside.html', body: 'x' }));
  const deletable = theme.embedded('templates').find((template) => template.can('svc:delete_template'))!;
  await deletable.follow('svc:delete_template');
  await theme.follow('svc:update_theme', { title: 'Replayed production' });

  theme = await theme.follow('self');
  theme = await theme.follow('self');
  await theme.follow('svc:dev_theme');
  await created.follow('self');
  const asset = theme.embedded('assets').find((a) => a.properties.file_name === 'images/replayed.png')!;
  await asset.follow('file');
  await theme.follow('svc:theme_preview');
  const products = await shop.follow('svc:products', { per_page: 5 });
  await products.take(7);
  await root.follow('svc:product', { shop_id: shopId, id: products.embedded('items')[0]!.properties.id });
  await root.follow('svc:all_products', { q: 'a', sort: 'price.asc' });
  const orders = await shop.follow('svc:orders');
  const order = orders.embedded('items')[0];
  if (order) await order.follow('self');
  const events = await root.follow('svc:events', { per_page: 50 });
  const templateEvent = events.embedded('items').find((event) => event.properties.type === 'template.updated');
  if (templateEvent) await templateEvent.follow('svc:subject');
  await failing(root.follow('svc:shop', { id: '9999' }));
  await root.follow('svc:shops');
  await root.follow('svc:webhook_endpoints');
  await client.root();
}

/** Both recordings, origins replaced by `{origin}`; tokens, preview keys, request ids and validators masked. */
export interface Replayed {
  server: RecordedAnswer[];
  mock: RecordedAnswer[];
}

const MOCK_ORIGIN = 'http://replayed-shop.test';

/** Ids the server draws at random for new rows (events): `evt_` and 24 characters of base 36. */
const RANDOM_ID = /\bevt_[0-9a-z]{24}\b/g;

/**
 * `answers` with the origin replaced and volatile values masked: tokens, validators, request ids, and random ids
 * of new rows, which become `{new id N}` in the order they first appear, so that references between answers
 * still have to agree.
 */
function normalized(answers: RecordedAnswer[], origin: string): RecordedAnswer[] {
  const ids = new Map<string, string>();
  const text = JSON.stringify(answers)
    .replaceAll(origin, '{origin}')
    // A new theme's preview key is drawn at random: a capability, like a token.
    .replace(/\/preview\/[\w-]{16,}\//g, '/preview/{key}/')
    .replace(RANDOM_ID, (id) => {
      if (!ids.has(id)) ids.set(id, `{new id ${ids.size + 1}}`);
      return ids.get(id)!;
    });
  return mask(JSON.parse(text)) as RecordedAnswer[];
}

/** Fields whose values are drawn per answer or per write, and what they become. */
const VOLATILE: Record<string, string> = {
  access_token: '{token}',
  refresh_token: '{token}',
  id_token: '{token}',
  preview_key: '{key}',
  request_id: '{request id}',
  etag: '{etag}',
};

/** Validators are hashes over representations, which hold the origin: only their kind, weak or strong, stays. */
function masked(key: string, value: string): string {
  return key === 'etag' && value.startsWith('W/') ? `W/${VOLATILE.etag}` : VOLATILE[key]!;
}

function mask(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mask);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      Object.hasOwn(VOLATILE, key) && typeof inner === 'string' ? masked(key, inner) : mask(inner),
    ]),
  );
}

/** Runs {@link appSession} with a client whose requests are recorded, against `baseUrl`. */
async function record(
  baseUrl: string,
  origin: string,
  credentials: SessionCredentials,
  shopId: string,
): Promise<RecordedAnswer[]> {
  const answers: Promise<RecordedAnswer>[] = [];
  const client = createClient({
    baseUrl,
    fetch: recordingFetch(answers),
    auth: password({
      authUrl: origin,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      username: credentials.login,
      password: credentials.password,
      scope: 'admin',
    }),
  });
  await appSession(client, shopId);
  return normalized(await Promise.all(answers), origin);
}

/** The session recorded against a reference server over a copy of the data directory `dir` (`dir` is only read). */
export async function recordServer(
  dir: string,
  credentials: SessionCredentials,
  { shopId = '1', now = SESSION_NOW }: SessionOptions = {},
): Promise<RecordedAnswer[]> {
  const copy = await mkdtemp(join(tmpdir(), 'storefront-replay-'));
  try {
    await cp(dir, copy, { recursive: true });
    // The explorer registers a client of its own: the mock has none.
    const server = await createServer({
      port: 0,
      data: join(copy, 'db.json'),
      explorer: false,
      clock: { now: () => now },
    });
    try {
      return await record(server.baseUrl, server.origin, credentials, shopId);
    } finally {
      await server.close();
    }
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

/** The session replayed through the SDK against `createHandlers({ data })` in msw's `setupServer`. */
export async function recordMock(
  data: Dataset,
  credentials: SessionCredentials,
  { shopId = '1', now = SESSION_NOW }: SessionOptions = {},
): Promise<RecordedAnswer[]> {
  const mock = createHandlers({ data, origin: MOCK_ORIGIN, clock: { now: () => now } });
  const msw = setupServer(...mock.handlers);
  msw.listen({ onUnhandledRequest: 'error' });
  try {
    return await record(mock.baseUrl, mock.origin, credentials, shopId);
  } finally {
    msw.close();
  }
}

/** Where the session works, and the clock of both sides. */
export interface SessionOptions {
  /** A shop the user administers. Default `'1'`. */
  shopId?: string;
  /** Epoch ms of the fixed clock. */
  now?: number;
}

const SESSION_NOW = Date.UTC(2026, 5, 1);

/**
 * The session recorded against a reference server over a copy of the data directory `dir`, then replayed against
 * `createHandlers({ data: await readDataset(dir) })`, with the same clock.
 */
export async function compareServerAndMock(
  dir: string,
  credentials: SessionCredentials,
  options: SessionOptions = {},
): Promise<Replayed> {
  // Read first, as a test suite would, from the directory the server must not change.
  const data = await readDataset(dir);
  return { server: await recordServer(dir, credentials, options), mock: await recordMock(data, credentials, options) };
}
