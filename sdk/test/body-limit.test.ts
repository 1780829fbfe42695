/**
 * `maxResponseSize` against a real HTTP server on port 0 that sends bodies without end (plain, gzip, error
 * statuses, files): the request fails with a `ResponseTooLargeError`, the server sees its connection closed before
 * it finished, and the bytes the SDK pulled from the response stay within the limit plus the chunk that crossed it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import {
  createClient,
  createHttpCache,
  createMemoryCacheStore,
  type Entity,
  HttpError,
  ResponseTooLargeError,
  ServerError,
} from '@storefront-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_NAME_LENGTH } from '../../server/src/api/themes/file-path.js';
import { assetResource, templateResource, themeResource } from '../../server/src/api/themes/representations.js';
import { MAX_TEMPLATE_BYTES } from '../../server/src/api/themes/template.js';
import {
  MAX_ASSETS_PER_THEME,
  MAX_SETTINGS_BYTES,
  MAX_TEMPLATES_PER_THEME,
  MAX_TITLE_LENGTH,
} from '../../server/src/api/themes/theme.js';
import type { Store } from '../../server/src/store/types.js';
import { DEFAULT_MAX_RESPONSE_SIZE, limitBody, MAX_THEME_DOCUMENT_BYTES, withBody } from '../src/http/body-limit.js';
import { maxThemeDocumentBytes } from '../src/shared/theme-document.js';

const LIMIT = 1024 * 1024;
const CHUNK = Buffer.alloc(16 * 1024, 'a');

/** How the server's answers ended. */
interface Sent {
  path: string;
  /** Whether the answer was written to its end (false: the client closed the connection first). */
  finished: boolean;
  requestHeaders: IncomingMessage['headers'];
}

let server: Server;
let origin: string;
const ends: Sent[] = [];
/** One promise per path, resolved when the server's answer on it closed. */
const closed = new Map<string, { promise: Promise<Sent>; resolve: (sent: Sent) => void }>();

function closing(path: string): Promise<Sent> {
  if (!closed.has(path)) {
    let resolve!: (sent: Sent) => void;
    const promise = new Promise<Sent>((r) => {
      resolve = r;
    });
    closed.set(path, { promise, resolve });
  }
  return closed.get(path)!.promise;
}

/** Writes `CHUNK`s to `res` for as long as the connection lasts, with backpressure. */
function endless(res: NodeJS.WritableStream): void {
  const pump = () => {
    while (res.write(CHUNK)) {
      // keep writing until the socket's buffer is full
    }
    res.once('drain', pump);
  };
  pump();
}

function answer(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url!, 'http://x').pathname;
  res.on('close', () => {
    const sent = { path, finished: res.writableFinished, requestHeaders: req.headers };
    ends.push(sent);
    closing(path);
    closed.get(path)!.resolve(sent);
  });
  const json = { 'content-type': 'application/json' };
  switch (path) {
    case '/v1/':
      res.writeHead(200, { ...json, etag: '"root"' });
      res.end(
        JSON.stringify({
          _class: ['root'],
          _links: {
            self: { href: `${origin}/v1/` },
            'svc:endless': { href: `${origin}/endless` },
            'svc:image': { href: `${origin}/image`, type: 'image/png' },
            'svc:sized': { href: `${origin}/sized` },
            'svc:sized_by': { href: `${origin}/sized{?bytes}`, templated: true },
            // Sized like a theme over the plain default: a theme at every limit is larger still.
            'svc:theme': { href: `${origin}/sized?bytes=${DEFAULT_MAX_RESPONSE_SIZE + 64 * 1024}` },
            'svc:declared_by': { href: `${origin}/declared{?bytes}`, templated: true },
            'svc:dev_theme': { href: `${origin}/declared?bytes=${maxThemeDocumentBytes() + 1}` },
          },
        }),
      );
      return;
    case '/endless':
      res.writeHead(200, json);
      endless(res);
      return;
    case '/error':
      res.writeHead(500, json);
      endless(res);
      return;
    case '/gzip': {
      res.writeHead(200, { ...json, 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      res.on('close', () => gzip.destroy());
      endless(gzip);
      return;
    }
    case '/image':
      res.writeHead(200, { 'content-type': 'image/png' });
      endless(res);
      return;
    case '/declared':
      // Declares more than the limit and sends nothing yet: refused by its header alone.
      res.writeHead(200, {
        ...json,
        'content-length': new URL(req.url!, 'http://x').searchParams.get('bytes') ?? String(LIMIT * 100),
      });
      res.flushHeaders();
      return;
    case '/sized': {
      // A JSON document of exactly `?bytes=` bytes, the limit itself included.
      const bytes = Number(new URL(req.url!, 'http://x').searchParams.get('bytes') ?? 2 * LIMIT);
      const document = JSON.stringify({ _class: ['thing'], _links: {}, pad: '' });
      const body = document.replace('"pad":""', `"pad":"${'x'.repeat(bytes - document.length)}"`);
      const validators = { etag: `"${bytes}"`, 'cache-control': 'private, max-age=0, must-revalidate' };
      if (req.headers['if-none-match'] === validators.etag) {
        // A 304's Content-Length is the representation's: no body to count.
        res.writeHead(304, { ...validators, 'content-length': String(LIMIT * 100) });
        res.end();
        return;
      }
      res.writeHead(200, { ...json, ...validators });
      res.end(body);
      return;
    }
    default:
      res.writeHead(404, json);
      res.end('{"_class":["errors"],"message":"no such path"}');
  }
}

/** What the SDK pulled out of the responses of its `fetch`: bytes, and the largest chunk. */
function countingFetch() {
  const count = { read: 0, largestChunk: 0 };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    if (!response.body) return response;
    const reader = response.body.getReader();
    // Pulled only when the SDK reads: what this counts is what the SDK took.
    const counted = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          count.read += value.byteLength;
          count.largestChunk = Math.max(count.largestChunk, value.byteLength);
          controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return withBody(response, counted);
  };
  return { count, fetch };
}

function client(options: { maxResponseSize?: number | false; fetch?: typeof fetch } = {}) {
  return createClient({ baseUrl: `${origin}/v1/`, cache: false, maxResponseSize: LIMIT, ...options });
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Follows `rel` from the root with `sdk`, expecting a refusal. */
async function refused(rel: string, options: Parameters<typeof client>[0] = {}) {
  const root = (await client(options).root()) as unknown as Entity;
  return root.follow(rel).then(
    () => expect.fail(`${rel} was read`),
    (error: unknown) => error,
  );
}

describe('maxResponseSize', () => {
  it('refuses an endless JSON body after reading at most the limit plus a chunk, and closes the connection', async () => {
    const { count, fetch } = countingFetch();
    const ended = closing('/endless');
    const error = await refused('svc:endless', { fetch });
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', status: 200, limit: LIMIT, method: 'GET' });
    expect((error as Error).message).toContain(`${origin}/endless`);
    expect((await ended).finished).toBe(false);
    expect(count.read).toBeGreaterThan(LIMIT);
    expect(count.read).toBeLessThanOrEqual(LIMIT + count.largestChunk);
  });

  it('reads an error body under the same limit, and does not retry the request', async () => {
    const { count, fetch } = countingFetch();
    const ended = closing('/error');
    const before = ends.filter((sent) => sent.path === '/error').length;
    // Retries on (the default): a 500 is retried, an answer too large is not.
    const error = await createClient({ baseUrl: `${origin}/error`, maxResponseSize: LIMIT, fetch })
      .root()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    // An answer the client cannot use, like any HttpError, but not the 500's own error: its body was not read.
    expect(error).toBeInstanceOf(HttpError);
    expect(error).not.toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, limit: LIMIT, body: undefined });
    expect((error as Error).message).toMatch(/ answered 500, which the client cannot use: a body over \d+ bytes/);
    expect((await ended).finished).toBe(false);
    expect(ends.filter((sent) => sent.path === '/error').length - before).toBe(1);
    expect(count.read).toBeLessThanOrEqual(LIMIT + count.largestChunk);
  });

  it('counts a compressed body decoded', async () => {
    const { count, fetch } = countingFetch();
    const ended = closing('/gzip');
    const error = await createClient({ baseUrl: `${origin}/gzip`, maxResponseSize: LIMIT, fetch, cache: false })
      .root()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((await ended).finished).toBe(false);
    // Repeated bytes compress a thousandfold: what crossed the limit is the decoded count.
    expect(count.read).toBeGreaterThan(LIMIT);
    expect(count.read).toBeLessThanOrEqual(LIMIT + count.largestChunk);
  });

  it('refuses by Content-Length before reading a byte', async () => {
    const { count, fetch } = countingFetch();
    const ended = closing('/declared');
    const error = await createClient({ baseUrl: `${origin}/declared`, maxResponseSize: LIMIT, fetch })
      .root()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((await ended).finished).toBe(false);
    expect(count.read).toBe(0);
  });

  it('lets a file handed out unread fail the same way while it is read', async () => {
    const ended = closing('/image');
    const root = (await client().root()) as unknown as Entity;
    const file = (await root.follow('svc:image')) as unknown as Response;
    expect(file).toBeInstanceOf(Response);
    expect(file.url).toBe(`${origin}/image`);
    const error = await file.arrayBuffer().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((await ended).finished).toBe(false);
  });

  it('reads a body of exactly the limit, and one byte more is refused', async () => {
    const root = (await client().root()) as unknown as Entity;
    const sized = root.link('svc:sized').href;
    const at = await createClient({ baseUrl: `${sized}?bytes=${LIMIT}`, maxResponseSize: LIMIT }).root();
    expect(((at as unknown as Entity).properties as { pad: string }).pad).toHaveLength(
      LIMIT - JSON.stringify({ _class: ['thing'], _links: {}, pad: '' }).length,
    );
    const over = await createClient({ baseUrl: `${sized}?bytes=${LIMIT + 1}`, maxResponseSize: LIMIT })
      .root()
      .catch((e: unknown) => e);
    expect(over).toBeInstanceOf(ResponseTooLargeError);
  });

  it('counts no body of a 304, whatever its Content-Length says', async () => {
    const root = (await client().root()) as unknown as Entity;
    const url = `${root.link('svc:sized').href}?bytes=${LIMIT / 2}`;
    // The 304 below declares a hundredfold the limit, as a server may (the size of the representation).
    const cached = createClient({ baseUrl: url, maxResponseSize: LIMIT });
    const first = await cached.root();
    const again = await cached.root();
    expect(first.response?.revalidated).toBe(false);
    expect(again.response?.revalidated).toBe(true);
  });

  it('asks anew for a cached answer larger than it reads (a store shared with a client of a higher limit)', async () => {
    const root = (await client().root()) as unknown as Entity;
    const url = `${root.link('svc:sized').href}?bytes=${2 * LIMIT}`;
    const shared = createMemoryCacheStore({ maxBytes: 10 * LIMIT });
    await createClient({ baseUrl: url, maxResponseSize: false, cache: createHttpCache({ store: shared }) }).root();
    const error = await createClient({
      baseUrl: url,
      maxResponseSize: LIMIT,
      cache: createHttpCache({ store: shared }),
    })
      .root()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(ends.at(-1)?.requestHeaders['if-none-match']).toBeUndefined();
  });

  it('takes a positive integer or false', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1' as unknown as number]) {
      expect(() => client({ maxResponseSize: bad })).toThrow(TypeError);
    }
    expect(() => client({ maxResponseSize: false })).not.toThrow();
  });
});

describe('maxResponseSize of one follow', () => {
  it("holds a file handed out unread to a tighter limit than the client's, and closes the connection", async () => {
    const { count, fetch } = countingFetch();
    const ended = closing('/image');
    const root = (await client({ fetch }).root()) as unknown as Entity;
    const before = count.read;
    const file = (await root.follow('svc:image', undefined, { maxResponseSize: 64 * 1024 })) as unknown as Response;
    const error = await file.arrayBuffer().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 64 * 1024, status: 200 });
    expect(count.read - before).toBeLessThanOrEqual(64 * 1024 + count.largestChunk);
    expect((await ended).finished).toBe(false);
  });

  it('reads a JSON answer of exactly its limit, and refuses one byte more', async () => {
    const root = (await client().root()) as unknown as Entity;
    const limit = 10_000;
    const exact = (await root.follow('svc:sized_by', { bytes: limit }, { maxResponseSize: limit })) as Entity;
    expect(JSON.stringify(exact.toJSON())).toHaveLength(limit);
    const over = await root
      .follow('svc:sized_by', { bytes: limit + 1 }, { maxResponseSize: limit })
      .catch((e: unknown) => e);
    expect(over).toBeInstanceOf(ResponseTooLargeError);
    expect(over).toMatchObject({ limit });
  });

  it("never raises the client's limit", async () => {
    const error = await ((await client().root()) as unknown as Entity)
      .follow('svc:endless', undefined, { maxResponseSize: 10 * LIMIT })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ limit: LIMIT });
  });

  it('takes a positive integer, checked before anything is sent', async () => {
    let fetches = 0;
    const counting: typeof fetch = (input, init) => {
      fetches++;
      return globalThis.fetch(input, init);
    };
    const root = (await client({ fetch: counting }).root()) as unknown as Entity;
    for (const bad of [0, -1, 1.5, Number.NaN, '1' as unknown as number]) {
      await expect(root.follow('svc:endless', undefined, { maxResponseSize: bad })).rejects.toThrow(TypeError);
    }
    expect(fetches).toBe(1);
  });
});

const MiB = 1024 * 1024;

describe('the default limits', () => {
  const defaults = () => createClient({ baseUrl: `${origin}/v1/`, cache: false });

  it('64 MiB for a plain answer: a longer one is cut there', async () => {
    const { count, fetch } = countingFetch();
    const root = (await createClient({ baseUrl: `${origin}/v1/`, cache: false, fetch }).root()) as unknown as Entity;
    const error = await root.follow('svc:endless').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 64 * MiB, status: 200 });
    expect(count.read).toBeLessThanOrEqual(64 * MiB + count.largestChunk);
    const declared = await root.follow('svc:declared_by', { bytes: 64 * MiB + 1 }).catch((e: unknown) => e);
    expect(declared).toMatchObject({ limit: 64 * MiB });
  });

  it.each([
    ['no option', undefined],
    ['no limit (false)', false as const],
    ['a higher limit', 100 * MiB],
  ])('10 MiB for an error answer, with %s: a longer one is cut there', async (_, maxResponseSize) => {
    const { count, fetch } = countingFetch();
    const error = await createClient({ baseUrl: `${origin}/error`, maxResponseSize, fetch, retry: false })
      .root()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: 10 * MiB, status: 500 });
    expect(count.read).toBeLessThanOrEqual(10 * MiB + count.largestChunk);
  });

  it('a theme at every API limit for a relation whose answer may be a theme, read with no option', async () => {
    const root = (await defaults().root()) as unknown as Entity;
    const theme = (await root.follow('svc:theme')) as Entity;
    expect(JSON.stringify(theme.toJSON())).toHaveLength(DEFAULT_MAX_RESPONSE_SIZE + 64 * 1024);
    // One byte over the largest theme is refused all the same.
    const over = await root.follow('svc:dev_theme').catch((e: unknown) => e);
    expect(over).toBeInstanceOf(ResponseTooLargeError);
    expect(over).toMatchObject({ limit: maxThemeDocumentBytes() });
  });

  it('the largest theme holds a theme at every limit of the server, as the server represents it', () => {
    const addresses = {
      origin: 'https://storefront.example.com',
      baseUrl: 'https://storefront.example.com/v1',
      authUrl: 'https://storefront.example.com',
      staticUrl: 'https://storefront.example.com/static',
    };
    const stamp = '2026-01-01T00:00:00.000Z';
    const id = 'f'.repeat(36);
    const fileName = `${'a'.repeat(MAX_FILE_NAME_LENGTH - 5)}.html`;
    // Control characters: JSON escapes each byte of them as six.
    const template = templateResource(addresses, {
      id,
      theme_id: id,
      file_name: fileName,
      body: '\u0001'.repeat(MAX_TEMPLATE_BYTES),
      created_on: stamp,
      updated_on: stamp,
    });
    const asset = assetResource(addresses, {
      id,
      theme_id: id,
      file_name: `${'a'.repeat(MAX_FILE_NAME_LENGTH - 4)}.png`,
      content_type: 'image/svg+xml',
      digest: '0'.repeat(32),
      file_size: 1024 * 1024,
      created_on: stamp,
      updated_on: stamp,
    });
    const noFiles = { where: () => [] } as unknown as Store;
    const settings = { s: 'x'.repeat(MAX_SETTINGS_BYTES - 8) };
    const theme = themeResource(
      addresses,
      noFiles,
      {
        id,
        shop_id: id,
        title: '\u0001'.repeat(MAX_TITLE_LENGTH),
        production: true,
        settings,
        preview_key: 'k'.repeat(43),
        created_on: stamp,
        updated_on: stamp,
      },
      `${addresses.baseUrl}/shops/${id}`,
    );
    const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
    // Each member joins its array with a comma.
    const largest =
      bytes(theme) + MAX_TEMPLATES_PER_THEME * (bytes(template) + 1) + MAX_ASSETS_PER_THEME * (bytes(asset) + 1);
    expect(bytes(template)).toBeGreaterThan(6 * MAX_TEMPLATE_BYTES);
    expect(largest).toBeLessThanOrEqual(maxThemeDocumentBytes());
    // Near it, not a guess far above.
    expect(largest).toBeGreaterThan(maxThemeDocumentBytes() * 0.98);
  });

  it('sizes theme answers by the formula over API_LIMITS, worked out once so that no client carries API_LIMITS', () => {
    expect(MAX_THEME_DOCUMENT_BYTES).toBe(maxThemeDocumentBytes());
  });
});

describe('answers without a body', () => {
  it.each([204, 304])('hands a %i with a body stream back as it is (as Chromium gives them)', async (status) => {
    const response = new Response(null, { status });
    // Chromium's fetch gives these an empty stream; a Response of such a status cannot be made with one.
    Object.defineProperty(response, 'body', { value: new ReadableStream({ start: (c) => c.close() }) });
    const limited = limitBody(response, 1024, { method: 'GET', url: 'http://api.test/v1/x' });
    expect(limited).toBe(response);
    expect(limited.status).toBe(status);
  });
});
