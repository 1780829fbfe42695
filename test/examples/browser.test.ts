/** The browser example: its bundle builds for browsers, and its static server serves the page, script and config. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, serveBrowserExample } from '../../examples/browser/serve.js';

describe('browser example', () => {
  let server: Server;
  let origin: string;
  const connection = { baseUrl: 'http://localhost:4000/v1', authUrl: 'http://localhost:4000', clientId: 'demo-app' };

  beforeAll(async () => {
    server = await serveBrowserExample(connection, 0);
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server?.close(() => done())));

  it('bundles the page script with the SDK, with nothing left to resolve', async () => {
    const code = await buildApp();
    // Everything is inlined: no import statement is left for the browser to resolve.
    expect(code).not.toMatch(/\bimport\s*[{*\w]|from\s*["']/);
    expect(code).not.toMatch(/["']node:/);
    expect(code).toContain('/config.json');
  });

  it('serves the page at / and at the redirect URI, the bundle, and the config without a secret', async () => {
    const page = await fetch(`${origin}/`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/app.js"></script>');
    expect(await (await fetch(`${origin}/callback`)).text()).toBe(html);

    const script = await fetch(`${origin}/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toBe(await buildApp());

    expect(await (await fetch(`${origin}/config.json`)).json()).toEqual(connection);
    expect((await fetch(`${origin}/nothing-here`)).status).toBe(404);
    expect((await fetch(`${origin}/`, { method: 'POST' })).status).toBe(405);
  });
});
