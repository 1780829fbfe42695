/**
 * A POST whose answer is lost after the server committed it, retried by the SDK with the same `Idempotency-Key`:
 * one template, and the app gets the first answer. The answers are cut by the sandbox's `truncated` fault (the
 * core answers, the shell sends half the body and ends the connection), through the real server's control API.
 * Also the request id of a failed request, from the server's log line to the SDK's error.
 */
import {
  type ClientEvents,
  clientCredentials,
  createClient,
  InvalidResponseError,
  NotFoundError,
  ResponseTooLargeError,
} from '@storefront-platform/sdk';
import { connectSandbox, createServer, type StorefrontServer } from '@storefront-platform/server';
import type { KyInstance } from 'ky';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userKy } from './helpers/user-ky.js';

let server: StorefrontServer;
const logged: string[] = [];

beforeAll(async () => {
  server = await createServer({ port: 0, products: 3, control: true, log: (line) => logged.push(line) });
});
afterAll(async () => {
  await server?.close();
});

function client(retry: { limit: number } | false = { limit: 3 }, ky?: KyInstance, fetch?: typeof globalThis.fetch) {
  const { clientId, clientSecret } = server.credentials!;
  const auth = clientCredentials({ authUrl: server.origin, clientId, clientSecret, scope: 'admin' });
  return createClient({
    baseUrl: server.baseUrl,
    auth,
    retry: retry && { ...retry, delay: () => 1 },
    ...(ky && { ky }),
    ...(fetch && { fetch }),
  });
}

const named = (fileName: string) => server.store.all('templates').filter((row) => row.file_name === fileName);

describe('a POST whose answer was lost', () => {
  it('is retried with its key and creates one template', async () => {
    const sandbox = connectSandbox(server.control!);
    await sandbox.faults.clear();
    await sandbox.faults.add({ kind: 'truncated', method: 'POST', path: '/v1/themes/:id/templates', times: 2 });
    const theme = await client().root().follow('svc:shop', { id: 1 }).follow('svc:theme');
    const retries: number[] = [];
    const sdk = client();
    sdk.on('retry', ({ attempt }) => retries.push(attempt));
    const created = await (await sdk.root().follow('svc:shop', { id: 1 }).follow('svc:theme')).follow(
      'svc:create_template',
      { file_name: 'lost-answer.html', body: '<p>once</p>' },
    );
    expect(theme).toBeDefined();
    expect(retries).toEqual([1, 2]);
    expect(created.response?.status).toBe(201);
    expect(created.response?.headers.get('idempotent-replayed')).toBe('true');
    expect(named('lost-answer.html')).toHaveLength(1);
    expect(created.properties.id).toBe(named('lost-answer.html')[0]!.id);
    const posts = await sandbox.journal.entries({ method: 'POST', path: '/v1/themes/' });
    // The two cut answers are journaled with the rule that cut them, then the replay sent whole.
    expect(posts.map((entry) => [entry.status, entry.fault !== null])).toEqual([
      [201, true],
      [201, true],
      [201, false],
    ]);
    await sandbox.faults.clear();
  });

  it('without retries, is an error, and sent again by hand with the same key still creates one', async () => {
    const sandbox = connectSandbox(server.control!);
    await sandbox.faults.add({ kind: 'truncated', method: 'POST', path: '/v1/themes/:id/templates', times: 1 });
    const theme = await client(false).root().follow('svc:shop', { id: 1 }).follow('svc:theme');
    const args = { file_name: 'by-hand.html', body: '<p>by hand</p>' };
    await expect(theme.follow('svc:create_template', args, { idempotencyKey: 'app-key-1' })).rejects.toThrow();
    const again = await theme.follow('svc:create_template', args, { idempotencyKey: 'app-key-1' });
    expect(again.response?.headers.get('idempotent-replayed')).toBe('true');
    expect(named('by-hand.html')).toHaveLength(1);
    await sandbox.faults.clear();
  });
});

describe('request ids', () => {
  it('are named by the errors of answers the client could not read', async () => {
    const tooLarge = await client(false)
      .root()
      .follow('svc:shop', { id: 1 }, { maxResponseSize: 100 })
      .catch((e: unknown) => e);
    expect(tooLarge).toBeInstanceOf(ResponseTooLargeError);
    const { requestId } = tooLarge as ResponseTooLargeError;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((tooLarge as Error).message).toContain(`[request ${requestId}]`);
    const notHal: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (!request.url.includes('/v1/shops/')) return fetch(request);
      const headers = { 'content-type': 'application/hal+json', 'x-request-id': 'not-hal-1' };
      return new Response('{"hello":"world"}', { headers });
    };
    const invalid = await client(false, undefined, notHal)
      .root()
      .follow('svc:shop', { id: 1 })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(InvalidResponseError);
    expect((invalid as InvalidResponseError).problem).toBeDefined();
    expect((invalid as Error).message).toMatch(/cannot use: .* \[request not-hal-1\] \(hop 1: svc:shop\)$/);
  });

  it('joins an SDK error, its answer and the server log line', async () => {
    const error = await client(false)
      .root()
      .follow('svc:shop', { id: 999 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const { requestId, body, message } = error as NotFoundError;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((body as { request_id: string }).request_id).toBe(requestId);
    expect(message).toContain(`[request ${requestId}]`);
    await expect
      .poll(() => logged.find((line) => line.endsWith(`id=${requestId}`)))
      .toMatch(/^GET \/v1\/shops\/999\.json 404 /);
    const entries = await connectSandbox(server.control!).journal.entries({ status: 404 });
    expect(entries.map((entry) => entry.request_id)).toContain(requestId);
  });

  it("is in the SDK's response events, and a write's event carries it: the app's own id when it sends one", async () => {
    const responses: ClientEvents['response'][] = [];
    const sdk = client(false);
    sdk.on('response', (event) => responses.push(event));
    const shop = await sdk.root().follow('svc:shop', { id: 1 });
    expect(responses).toHaveLength(2);
    expect(responses[1]!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(responses[1]!.requestId).toBe(shop.response?.headers.get('x-request-id'));
    expect(new Set(responses.map((event) => event.requestId)).size).toBe(2);

    // An app's own id, set on its ky instance: the server keeps it, the response event and the write's event say it.
    const own = client(false, userKy.create({ headers: { 'x-request-id': 'app-trace-42' } }));
    const written: ClientEvents['response'][] = [];
    own.on('response', (event) => written.push(event));
    const theme = await own.root().follow('svc:shop', { id: 1 }).follow('svc:theme');
    await theme.follow('svc:create_template', { file_name: 'traced.html', body: '<p>traced</p>' });
    expect(written.map((event) => event.requestId)).toEqual(written.map(() => 'app-trace-42'));
    const template = named('traced.html')[0]!;
    const events = server.store.all('events').filter((event) => event.type === 'template.created');
    const recorded = events.find((event) => (event.data as { id: string }).id === template.id);
    expect(recorded?.request_id).toBe('app-trace-42');
  });
});
