/** The core's fetch form (`createCore(context).fetch`), as MSW uses it: no Express in between. */
import { beforeAll, describe, expect, it } from 'vitest';
import { toFetchHandler } from '../../src/core/fetch-adapter.js';
import { type SeededCore, seededCore } from '../helpers/seeded-core.js';

const origin = 'https://api.example';
let core: SeededCore['core'];
let token: string;
let templateUrl: string;

beforeAll(async () => {
  ({ core, token } = await seededCore(origin));
  const theme = await (await get('/v1/shops/1/theme.json')).json();
  templateUrl = theme._embedded.templates[1]._links.self.href;
});

function get(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token}`);
  return core.fetch(new Request(path.startsWith('http') ? path : `${origin}${path}`, { ...init, headers }));
}

describe('createCore().fetch', () => {
  it('answers with links on the configured origin', async () => {
    const root = await (await get('/v1')).json();
    expect(root._links.self.href).toBe(`${origin}/v1`);
    expect(root._links.curies[0].href).toBe(`${origin}/rels/{rel}`);
  });

  it('sends no body for HEAD and 304', async () => {
    const head = await get('/v1/shops/1', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    const etag = head.headers.get('etag')!;
    const notModified = await get('/v1/shops/1', { headers: { 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeNull();
  });

  it('refuses a streamed body past the shell cap with 413, without buffering it all', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(256 * 1024).fill(0x61);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 64) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await get(templateUrl, {
      method: 'PUT',
      body: stream,
      headers: { 'content-type': 'application/json' },
      // @ts-expect-error Node's fetch needs `duplex` for a streamed request body; DOM typings lack it.
      duplex: 'half',
    });
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(64);
  });

  it('reads the body once, however often the core asks for it', async () => {
    const handle = toFetchHandler(async (request) => {
      const [a, b] = await Promise.all([request.body(), request.body()]);
      const again = await request.body();
      const text = new TextDecoder().decode(again);
      return { status: 200, headers: {}, body: `${a === b && b === again} ${text}` };
    });
    const response = await handle(new Request(`${origin}/echo`, { method: 'POST', body: 'hello' }));
    expect(await response.text()).toBe('true hello');
  });

  it('refuses a whole body past the cap', async () => {
    const response = await get(templateUrl, {
      method: 'PUT',
      body: JSON.stringify({ body: 'x'.repeat(3 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
  });
});
