/**
 * `Idempotency-Key` on the API's POSTs and `X-Request-Id` on every answer, through a real server on port 0 (its
 * memory store). The PostgreSQL side, across processes, is `../postgres/idempotency.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/store/errors.js';
import { IDEMPOTENCY_TTL_MS, type Transaction } from '../../src/store/types.js';
import { clientToken, useTestServer } from '../helpers/test-server.js';

let offset = 0;
const server = useTestServer({ products: 3, clock: { now: () => Date.now() + offset } });

let token: string | undefined;

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  // One token for the file: issuing one is a write, which the 409 test holds back.
  token ??= await clientToken(server());
  return fetch(`${server().baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const templates = async () => {
  const { store } = server();
  return store.all('templates').length;
};

let counter = 0;
const fresh = (prefix: string) => `${prefix}-${++counter}-${Math.random().toString(36).slice(2)}`;

describe('Idempotency-Key', () => {
  it('replays the first answer to the same request, marked, and writes once', async () => {
    const key = fresh('k');
    const body = { file_name: `${fresh('t')}.html`, body: '<p>once</p>' };
    const before = await templates();
    const first = await post('/themes/1/templates', body, { 'idempotency-key': `"${key}"` });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.text();
    // A bare key is the same key as its sf-string.
    const again = await post('/themes/1/templates', body, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await templates()).toBe(before + 1);
  });

  it('replays an asset upload and a development theme created once', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64');
    const asset = { file_name: `images/${fresh('a')}.svg`, data: svg };
    const assetKey = fresh('k');
    const uploaded = await post('/themes/1/assets', asset, { 'idempotency-key': assetKey });
    expect(uploaded.status).toBe(201);
    const again = await post('/themes/1/assets', asset, { 'idempotency-key': assetKey });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await uploaded.json());
    expect(
      server()
        .store.all('assets')
        .filter((row) => row.file_name === asset.file_name),
    ).toHaveLength(1);

    const themes = server().store.all('themes').length;
    const themeKey = fresh('k');
    const created = await post('/shops/2/themes', { title: 'Draft' }, { 'idempotency-key': themeKey });
    expect(created.status).toBe(201);
    // Rendered once its copy of the production theme's templates was committed.
    const createdBody = await created.text();
    expect(
      (JSON.parse(createdBody) as { _embedded: { templates: unknown[] } })._embedded.templates.length,
    ).toBeGreaterThan(0);
    const replayed = await post('/shops/2/themes', { title: 'Draft' }, { 'idempotency-key': themeKey });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.text()).toBe(createdBody);
    expect(server().store.all('themes')).toHaveLength(themes + 1);
  });

  it('answers with the representation as committed: an upsert shows its new body', async () => {
    const name = `${fresh('t')}.html`;
    expect((await post('/themes/1/templates', { file_name: name, body: 'old' })).status).toBe(201);
    const updated = await post(
      '/themes/1/templates',
      { file_name: name, body: 'new' },
      { 'idempotency-key': fresh('k') },
    );
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { body: string }).body).toBe('new');
  });

  it('refuses the key with another body or path (422), and writes nothing for it', async () => {
    const key = fresh('k');
    const name = `${fresh('t')}.html`;
    expect((await post('/themes/1/templates', { file_name: name, body: 'a' }, { 'idempotency-key': key })).status).toBe(
      201,
    );
    const before = await templates();
    const other = await post('/themes/1/templates', { file_name: name, body: 'b' }, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(((await other.json()) as { message: string }).message).toMatch(
      /Invalid Idempotency-Key: it was used with another/,
    );
    const elsewhere = await post('/shops/1/themes', { title: 'x' }, { 'idempotency-key': key });
    expect(elsewhere.status).toBe(422);
    expect(await templates()).toBe(before);
  });

  it('answers 409 while the first request with the key is still being answered', async () => {
    const key = fresh('k');
    const body = { file_name: `${fresh('t')}.html`, body: 'slow' };
    const before = await templates();
    // Hold the store's write queue: the first request holds its key while its write waits.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const holding = server().store.write(() => gate);
    const first = post('/themes/1/templates', body, { 'idempotency-key': key });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await post('/themes/1/templates', body, { 'idempotency-key': key });
    expect(second.status).toBe(409);
    expect(second.headers.get('retry-after')).toBe('1');
    open();
    await holding;
    expect((await first).status).toBe(201);
    const third = await post('/themes/1/templates', body, { 'idempotency-key': key });
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(await templates()).toBe(before + 1);
  });

  /**
   * Makes the store's next writes fail as a database lost for a moment does (PostgreSQL's store): `kinds` in
   * order, `unconfirmed` after the write was applied (a commit whose answer the connection lost), `refused` before.
   */
  function failWrites(...kinds: ('unconfirmed' | 'refused' | 'ok')[]): () => void {
    const { store } = server();
    const real = store.write;
    store.write = async <T>(fn: (tx: Transaction) => T): Promise<T> => {
      const kind = kinds.shift();
      if (kind === 'refused') throw new StoreUnavailableError('Service unavailable: cannot begin a write');
      const result = await real.call(store, fn);
      if (kind === 'unconfirmed') throw new StoreUnavailableError('Service unavailable: the write was not confirmed');
      return result as T;
    };
    return () => {
      store.write = real;
    };
  }

  it('answers a write whose commit was not confirmed but made as made, and replays it', async () => {
    const key = fresh('k');
    const body = { file_name: `${fresh('t')}.html`, body: '<p>made</p>' };
    const before = await templates();
    const restore = failWrites('unconfirmed');
    const first = await post('/themes/1/templates', body, { 'idempotency-key': key }).finally(restore);
    expect(first.status).toBe(201);
    const again = await post('/themes/1/templates', body, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await templates()).toBe(before + 1);
  });

  it('keeps the answer through a moment without the database, and answers the write made even when it cannot', async () => {
    const key = fresh('k');
    const body = { file_name: `${fresh('t')}.html`, body: '<p>kept</p>' };
    // The write, then two refusals of its answer's write: the third try keeps it.
    let restore = failWrites('ok', 'refused', 'refused');
    const first = await post('/themes/1/templates', body, { 'idempotency-key': key }).finally(restore);
    expect(first.status).toBe(201);
    const again = await post('/themes/1/templates', body, { 'idempotency-key': key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // A database down for longer: the client still gets the answer of the write made.
    const other = fresh('k');
    restore = failWrites('ok', 'refused', 'refused', 'refused', 'refused');
    const made = await post(
      '/themes/1/templates',
      { ...body, file_name: `${fresh('t')}.html` },
      { 'idempotency-key': other },
    ).finally(restore);
    expect(made.status).toBe(201);
  });

  it('stores nothing for a failed request: the key is free for the corrected one', async () => {
    const key = fresh('k');
    const name = `${fresh('t')}.html`;
    const bad = await post('/themes/1/templates', { file_name: name }, { 'idempotency-key': key });
    expect(bad.status).toBe(422);
    const badAgain = await post('/themes/1/templates', { file_name: name }, { 'idempotency-key': key });
    expect(badAgain.status).toBe(422);
    expect(badAgain.headers.get('idempotent-replayed')).toBeNull();
    expect(
      server()
        .store.all('idempotency_keys')
        .some((row) => row.key === key),
    ).toBe(false);
  });

  it('forgets a key after 24 hours by the server clock, and prunes its row', async () => {
    const key = fresh('k');
    const body = { file_name: `${fresh('t')}.html`, body: 'day' };
    expect((await post('/themes/1/templates', body, { 'idempotency-key': key })).status).toBe(201);
    offset += IDEMPOTENCY_TTL_MS - 60_000;
    // Tokens expire too on that clock.
    token = undefined;
    expect(
      (await post('/themes/1/templates', body, { 'idempotency-key': key })).headers.get('idempotent-replayed'),
    ).toBe('true');
    offset += 120_000;
    token = undefined;
    const after = await post('/themes/1/templates', body, { 'idempotency-key': key });
    // Run again: the same file name is now an update of the template the first request created.
    expect(after.status).toBe(200);
    expect(after.headers.get('idempotent-replayed')).toBeNull();
    const rows = server().store.all('idempotency_keys');
    expect(rows.filter((row) => row.key === key)).toHaveLength(1);
    expect(rows.every((row) => row.expires_at > Date.now() + offset)).toBe(true);
  });

  it('refuses a malformed key with a 400', async () => {
    for (const key of ['"unterminated', 'two words', '', 'x'.repeat(256), '"a"b"']) {
      const response = await post('/themes/1/templates', { file_name: 'n.html', body: '' }, { 'idempotency-key': key });
      expect(response.status, key).toBe(400);
    }
  });
});

describe('X-Request-Id', () => {
  it('keeps a sane id of the client, in the header and the error body', async () => {
    const id = 'trace-1234:abcd_EF.5';
    const response = await fetch(`${server().baseUrl}/shops/999`, { headers: { 'x-request-id': id } });
    expect(response.status).toBe(401);
    expect(response.headers.get('x-request-id')).toBe(id);
    expect(((await response.json()) as { request_id: string }).request_id).toBe(id);
  });

  it('replaces an insane one, and gives every answer one (OAuth, preflight, success)', async () => {
    for (const given of ['has%20space', 'x'.repeat(129), 'quote"d', 'a,b', '']) {
      const response = await fetch(`${server().baseUrl}/shops/1`, { headers: { 'x-request-id': given } });
      expect(response.headers.get('x-request-id'), given).toMatch(/^[0-9a-f-]{36}$/);
      await response.body?.cancel();
    }
    const answers = await Promise.all([
      fetch(`${server().origin}/oauth/token`, { method: 'POST' }),
      fetch(`${server().baseUrl}/shops`, { method: 'OPTIONS' }),
      fetch(`${server().baseUrl}/`),
    ]);
    const ids = answers.map((response) => response.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(3);
  });
});
