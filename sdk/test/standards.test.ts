/**
 * The SDK against standards it is easy to get almost right: RFC 6570 encoding of characters outside the Basic
 * Multilingual Plane on the wire, RFC 9111 §4.3.4 for a 304 about another representation, and error messages that
 * say each thing once.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createClient, type Entity, ValidationError } from '@storefront-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceServer, startReferenceServer } from './helpers/reference-server.js';

describe('against the reference server', () => {
  let ref: ReferenceServer;
  beforeAll(async () => {
    ref = await startReferenceServer({ products: 3 });
  });
  afterAll(() => ref.server.close());

  it("sends q: '😀' as %F0%9F%98%80 and finds the product named with it", async () => {
    await ref.server.store.write((tx) => tx.update('products', '2', { title: 'Party hat 😀' }));
    const urls: string[] = [];
    const client = ref.client({
      fetch: (input, init) => {
        urls.push((input as Request).url);
        return fetch(input, init);
      },
    });
    const root = await client.root();
    const found = await root.follow('svc:all_products', { q: '😀' });
    expect(urls.at(-1)).toContain('q=%F0%9F%98%80');
    expect(found.pageItems.map((p) => p.properties.title)).toEqual(['Party hat 😀']);
  });

  it('says a lost update once: the server sentence, without the field error repeated', async () => {
    const client = ref.client();
    const theme = await (await client.root()).follow('svc:shop', { id: '1' }).follow('svc:theme');
    const template = theme.embedded('templates').find((t) => t.properties.file_name !== 'layout.html')!;
    const error = await template
      .follow('svc:update_template', { body: '<p>x</p>', last_updated_on: '2020-01-01T00:00:00.000Z' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const { message, errors } = error as ValidationError;
    expect(errors).toEqual([{ field: 'updated_on', messages: [expect.stringContaining('changed since')] }]);
    expect(message.split('changed since').length).toBe(2);
    expect(message).toMatch(/^PUT \S+ failed with 422: Invalid updated_on: the template changed since/);
  });
});

describe('a 304 that names another representation (RFC 9111 §4.3.4)', () => {
  let server: Server;
  let base: string;
  /** What the server sends for the conditional GET: a 304 with this strong tag. */
  let notModifiedTag = '"v1"';
  let version = 'v1';
  const requests: { ifNoneMatch: string | undefined }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push({ ifNoneMatch: request.headers['if-none-match'] });
      if (request.headers['if-none-match']) {
        response.writeHead(304, { etag: notModifiedTag });
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/hal+json', etag: `"${version}"` });
      response.end(JSON.stringify({ _links: { self: { href: '/' } }, version }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  });
  afterAll(() => server.close());

  it('refetches in full instead of answering from the stored copy, and stores what it gets', async () => {
    const client = createClient({ baseUrl: base, retry: false });
    expect(((await client.root()) as unknown as Entity).properties.version).toBe('v1');
    // The resource changed; a (broken) server still says 304, naming the new representation.
    version = 'v2';
    notModifiedTag = '"v2"';
    requests.length = 0;
    const second = (await client.root()) as unknown as Entity;
    expect(second.properties.version).toBe('v2');
    expect(second.response?.revalidated).toBe(false);
    expect(requests).toEqual([{ ifNoneMatch: '"v1"' }, { ifNoneMatch: undefined }]);
    // The new copy is the one stored: its tag is what the next revalidation sends, and a 304 with it is used.
    requests.length = 0;
    const third = (await client.root()) as unknown as Entity;
    expect(third.response?.revalidated).toBe(true);
    expect(third.properties.version).toBe('v2');
    expect(requests).toEqual([{ ifNoneMatch: '"v2"' }]);
  });

  it('takes a 304 with the stored tag, a weak one or none as being about the stored copy', async () => {
    for (const tag of ['"v2"', 'W/"other"', '']) {
      const client = createClient({ baseUrl: base, retry: false });
      await client.root();
      notModifiedTag = tag;
      requests.length = 0;
      const again = (await client.root()) as unknown as Entity;
      expect([tag, again.response?.revalidated, requests.length]).toEqual([tag, true, 1]);
    }
  });
});
