/**
 * The explorer as the server serves it (the browser tests drive the page itself): the page with its config and
 * security headers at every path under /explorer, its script and stylesheet with validators, the link from the
 * root, and the public client it signs in with, which never becomes the demo app.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../src/create-server.js';
import { EXPLORER_CLIENT_ID, explorerRedirectUris } from '../src/explorer/client.js';
import { useTempDir } from './helpers/temp-dir.js';
import { clientToken } from './helpers/test-server.js';

const servers: StorefrontServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));
const tempDir = useTempDir();

async function start(options: Parameters<typeof createServer>[0] = {}): Promise<StorefrontServer> {
  const server = await createServer({ port: 0, products: 3, ...options });
  servers.push(server);
  return server;
}

describe('the API explorer', () => {
  it('serves its page at /explorer and every path below it, configured for this server', async () => {
    const server = await start();
    expect(server.explorerUrl).toBe(`${server.origin}/explorer`);
    for (const path of ['/explorer', '/explorer/', '/explorer/v1/shops/1/theme.json?x=1']) {
      const response = await fetch(`${server.origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      // Scripts by the response's nonce, never by origin: the themes' files are served by the same one.
      expect(response.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+';/);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const html = await response.text();
      expect(html).toContain(`<meta name="storefront:base-url" content="${server.baseUrl}">`);
      expect(html).toContain(`<meta name="storefront:client-id" content="${EXPLORER_CLIENT_ID}">`);
      expect(html).toMatch(/<script type="module" src="\/explorer\/explorer.js" nonce="[^"]+"><\/script>/);
    }
  });

  it('serves its script and stylesheet with an ETag, a 304 when unchanged, and GET and HEAD only', async () => {
    const server = await start();
    const script = await fetch(`${server.origin}/explorer/explorer.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const code = await script.text();
    // No static import: the page's first load is this one script (the SDK code it offers to copy has an import,
    // in a string).
    expect(code).not.toMatch(/(?:^|[;}\n])\s*import\s*[{*\w"']|\}\s*from\s*["']\.\//);
    const etag = script.headers.get('etag')!;
    // The tag as sent, weak (as a proxy that recompressed it sends it), or among others: RFC 9110's weak comparison.
    for (const tags of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const again = await fetch(`${server.origin}/explorer/explorer.js`, { headers: { 'if-none-match': tags } });
      expect(again.status, tags).toBe(304);
    }
    const css = await fetch(`${server.origin}/explorer/explorer.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const post = await fetch(`${server.origin}/explorer/`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('serves the code editor as a chunk the script imports only when an edit dialog asks for it', async () => {
    const server = await start();
    const code = await (await fetch(`${server.origin}/explorer/explorer.js`)).text();
    const imported = [...code.matchAll(/import\("\.\/([\w-]+\.js)"\)/g)].map((match) => match[1]!);
    expect(imported).toHaveLength(1);
    expect(imported[0]).toMatch(/^code-editor-[\w-]+\.js$/);
    const chunk = await fetch(`${server.origin}/explorer/${imported[0]}`);
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(chunk.headers.get('etag')).toBeTruthy();
    const editor = await chunk.text();
    // CodeMirror is in the chunk, not in the page's script.
    expect(editor).toContain('cm-lineNumbers');
    expect(code).not.toContain('cm-lineNumbers');
    // A name that is no file of the explorer is the page (a path of the API shown), never a file read from disk.
    const other = await fetch(`${server.origin}/explorer/code-editor-NOPE.js`);
    expect(other.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it("gives each page response a nonce of its own for its script and the editor's styles, and lets no one cache the page", async () => {
    const server = await start();
    const nonces = await Promise.all(
      [1, 2].map(async () => {
        const response = await fetch(`${server.origin}/explorer/`);
        const html = await response.text();
        const nonce = /<meta name="storefront:nonce" content="([^"]+)">/.exec(html)![1]!;
        const policy = response.headers.get('content-security-policy');
        expect(policy).toContain(`script-src 'nonce-${nonce}';`);
        expect(policy).toContain(`style-src 'self' 'nonce-${nonce}';`);
        expect(html).toContain(`src="/explorer/explorer.js" nonce="${nonce}"`);
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(response.headers.get('etag')).toBeNull();
        return nonce;
      }),
    );
    expect(nonces[0]).toMatch(/^[A-Za-z0-9+/]{24}$/);
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('is linked from the root as service-doc', async () => {
    const server = await start();
    const token = await clientToken(server, 'public');
    const root = await (await fetch(server.baseUrl, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(root._links['service-doc']).toEqual({ href: server.explorerUrl, type: 'text/html', title: 'API explorer' });
  });

  it('signs in as a public client registered at start, which is never the demo app', async () => {
    const data = join(await tempDir(), 'db.json');
    const first = await createServer({ port: 0, data, products: 3 });
    const credentials = first.credentials!;
    const explorer = () => first.store.where('apps', 'client_id', EXPLORER_CLIENT_ID);
    expect(explorer().map((app) => app.redirect_uris)).toEqual([explorerRedirectUris(first.origin)]);
    expect(explorerRedirectUris(first.origin)).toEqual([
      `${first.origin}/explorer/`,
      `http://localhost:${new URL(first.origin).port}/explorer/`,
    ]);
    await first.close();

    const second = await start({ data });
    expect(second.credentials).toEqual({ ...credentials, password: undefined });
    const apps = second.store.where('apps', 'client_id', EXPLORER_CLIENT_ID);
    expect(apps).toHaveLength(1);
    expect(apps[0]!.redirect_uris).toEqual(explorerRedirectUris(second.origin));
    const authorize = new URL(`${second.origin}/oauth/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'token',
      client_id: EXPLORER_CLIENT_ID,
      redirect_uri: `${second.origin}/explorer/`,
      scope: 'admin',
      state: 'abc',
    }).toString();
    const page = await fetch(authorize);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Authorize Storefront API explorer');
  });

  it('has no explorer client over data without users', async () => {
    const server = await start({ data: { users: [], apps: [] } });
    expect(server.store.all('apps')).toEqual([]);
  });
});
