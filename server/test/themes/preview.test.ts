import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createJsonStore } from '../../src/store/json/json-file.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { type Doc, demoData, startThemeServer, useThemeServer } from './fixture.js';

const tempDir = useTempDir();

const t = useThemeServer();
let theme: Doc;
beforeAll(async () => {
  theme = await t.json('/shops/1/theme.json');
});

const TYPES: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  html: 'text/html; charset=utf-8',
  png: 'image/png',
  gif: 'image/gif',
};

/** The relative `href`/`src` references of an HTML page (no scheme, no fragment-only links). */
function references(html: string): string[] {
  return [...html.matchAll(/\b(?:href|src)="([^"#:]+)"/g)].map((m) => m[1]!);
}

describe('svc:theme_preview', () => {
  it('is an HTML page of layout.html, openable without a token, with a <base> for its references', async () => {
    const href: string = theme._links['svc:theme_preview'].href;
    expect(href.startsWith(`${t.server.origin}/static/`)).toBe(true);
    const response = await fetch(href);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toMatch(/^sandbox allow-scripts/);
    const html = await response.text();
    const layout = (theme._embedded.templates as Doc[]).find((x) => x.file_name === 'layout.html')!;
    expect(html).toBe(layout.body.replace(/<head>/, `<head><base href="${href}">`));
    // Also without the trailing slash: the <base> keeps the references right.
    expect(await (await fetch(href.slice(0, -1))).text()).toBe(html);
  });

  it('resolves every stylesheet, script and image of the layout, with its media type', async () => {
    const href: string = theme._links['svc:theme_preview'].href;
    const html = await (await fetch(href)).text();
    const files = new Set([...theme._embedded.templates, ...theme._embedded.assets].map((x: Doc) => x.file_name));
    const refs = references(html).filter((ref) => files.has(ref));
    expect(refs).toEqual(expect.arrayContaining(['styles/theme.css', 'scripts/app.js', 'images/logo.png']));
    for (const ref of refs) {
      const file = await fetch(new URL(ref, href));
      expect([ref, file.status, file.headers.get('content-type')]).toEqual([ref, 200, TYPES[ref.split('.').pop()!]]);
    }
    const logo = (theme._embedded.assets as Doc[]).find((a) => a.file_name === 'images/logo.png')!;
    const bytes = new Uint8Array(await (await fetch(new URL('images/logo.png', href))).arrayBuffer());
    expect(bytes.byteLength).toBe(logo.file_size);
  });

  it('resolves a stylesheet’s url() relative to the stylesheet', async () => {
    await t.json('/themes/1/templates', {
      method: 'POST',
      json: { file_name: 'styles/more.css', body: '.hero { background: url(../images/banner.png); }' },
      status: 201,
    });
    const href: string = theme._links['svc:theme_preview'].href;
    const css = new URL('styles/more.css', href);
    expect(await (await fetch(css)).text()).toContain('url(../images/banner.png)');
    const image = await fetch(new URL('../images/banner.png', css));
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('keeps its address and shows the theme as it is now, revalidated through ETags', async () => {
    const href: string = theme._links['svc:theme_preview'].href;
    const css = new URL('styles/theme.css', href);
    const before = await fetch(css);
    expect(before.headers.get('cache-control')).toBe('no-cache');
    const etag = before.headers.get('etag')!;
    expect((await fetch(css, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const template = (theme._embedded.templates as Doc[]).find((x) => x.file_name === 'styles/theme.css')!;
    await t.json(template._links.self.href, { method: 'PUT', json: { body: 'body { color: red; }' }, status: 200 });
    const current = await t.json('/shops/1/theme.json');
    expect(current._links['svc:theme_preview'].href).toBe(href);
    const after = await fetch(css, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(await after.text()).toBe('body { color: red; }');
  });

  it('is 404 for a wrong key, an unknown file, another theme’s id, and path tricks', async () => {
    const href: string = theme._links['svc:theme_preview'].href;
    const key = href.split('/').at(-2)!;
    const wrong = [
      href.replace(key, '0'.repeat(key.length)),
      href.replace('/themes/1/', '/themes/2/'),
      `${href}missing.css`,
      `${href}styles%2F..%2Fstyles%2Ftheme.css`,
      `${href}..%5Clayout.html`,
    ];
    for (const url of wrong) expect([url, (await fetch(url)).status]).toEqual([url, 404]);
  });

  it('has a random key, not one derived from the theme: two servers over the same seed differ', async () => {
    const other = await startThemeServer();
    try {
      const again = await other.json('/shops/1/theme.json');
      expect(again.created_on).toBe(theme.created_on);
      expect(again._links['svc:theme_preview'].href).not.toBe(theme._links['svc:theme_preview'].href);
    } finally {
      await other.server.close();
    }
  });

  it('gives a key to themes of data written before keys existed, kept across restarts', async () => {
    const path = join(await tempDir(), 'data.json');
    const data = demoData();
    for (const row of data.themes) delete (row as Partial<typeof row>).preview_key;
    const first = await startThemeServer({ data: await createJsonStore(path, { initial: () => data }) });
    const before = new URL((await first.json('/shops/1/theme.json'))._links['svc:theme_preview'].href);
    await first.server.close();
    await first.server.store.close();
    expect(before.pathname).toMatch(/\/preview\/[\w-]{24}\/$/);
    const second = await startThemeServer({ data: path });
    try {
      const after = new URL((await second.json('/shops/1/theme.json'))._links['svc:theme_preview'].href);
      expect(after.pathname).toBe(before.pathname);
      expect((await fetch(after)).status).toBe(200);
    } finally {
      await second.server.close();
    }
  });

  it('has its own address for the development theme', async () => {
    const dev = await t.json('/shops/1/themes', { method: 'POST', status: 201 });
    const href: string = dev._links['svc:theme_preview'].href;
    expect(href).not.toBe(theme._links['svc:theme_preview'].href);
    expect((await fetch(href)).status).toBe(200);
  });
});
