import { describe, expect, it } from 'vitest';
import { type Doc, useThemeServer } from './fixture.js';

const t = useThemeServer();

const rels = (doc: Doc) => Object.keys(doc._links).sort();

describe('GET {base}/shops/{shop_id}/theme.json', () => {
  it('returns the production theme with its templates and assets embedded', async () => {
    const response = await t.call('/shops/1/theme.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-oauth-scopes')).toBe('admin');
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('admin');
    expect(response.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(response.headers.get('last-modified')).toMatch(/GMT$/);
    expect(response.headers.get('cache-control')).toBe('must-revalidate, private, max-age=0');
    const theme = (await response.json()) as Doc;
    expect(theme).toMatchObject({ _class: ['theme'], id: '1', production: true, title: expect.any(String) });
    expect(theme.updated_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(typeof theme.settings).toBe('object');
    expect(theme._embedded.templates.length).toBeGreaterThanOrEqual(10);
    expect(theme._embedded.assets.length).toBeGreaterThan(0);
  });

  it('links what a theme offers, and svc:create_dev_theme while the shop has no development theme', async () => {
    const theme = await t.json('/shops/1/theme.json');
    const base = t.base;
    expect(rels(theme)).toEqual(
      [
        'curies',
        'self',
        'svc:create_dev_theme',
        'svc:create_template',
        'svc:create_theme_asset',
        'svc:shop',
        'svc:theme_preview',
        'svc:update_theme',
      ].sort(),
    );
    expect(theme._links.curies).toEqual([{ name: 'svc', href: `${t.server.origin}/rels/{rel}`, templated: true }]);
    expect(theme._links.self).toEqual({ href: `${base}/themes/1` });
    expect(theme._links['svc:update_theme']).toMatchObject({ href: `${base}/themes/1`, method: 'put' });
    expect(theme._links['svc:create_template']).toMatchObject({ href: `${base}/themes/1/templates`, method: 'post' });
    expect(theme._links['svc:create_theme_asset']).toMatchObject({ href: `${base}/themes/1/assets`, method: 'post' });
    expect(theme._links['svc:create_dev_theme']).toMatchObject({ href: `${base}/shops/1/themes`, method: 'post' });
    expect(theme._links['svc:theme_preview']).toMatchObject({ type: 'text/html' });
    expect(theme._links['svc:shop'].href).toMatch(new RegExp(`^${base}/shops/1(\\.json)?$`));
  });

  it('embeds templates with update links, and delete links on all but layout.html', async () => {
    const theme = await t.json('/shops/1/theme.json');
    for (const template of theme._embedded.templates as Doc[]) {
      const href = `${t.base}/themes/1/templates/${template.id}`;
      expect(template).toMatchObject({
        _class: ['themeTemplate'],
        file_name: expect.any(String),
        body: expect.any(String),
      });
      expect(template.name).toBe(template.file_name.replace(/\.[^.]+$/, ''));
      expect(template.content_type).toBe(template.file_name.split('.').pop());
      expect(template._links.self).toEqual({ href });
      expect(template._links['svc:update_template']).toMatchObject({ href, method: 'put', title: expect.any(String) });
      if (template.file_name === 'layout.html') expect(template._links['svc:delete_template']).toBeUndefined();
      else
        expect(template._links['svc:delete_template']).toMatchObject({
          href,
          method: 'delete',
          title: expect.any(String),
        });
    }
    expect((theme._embedded.templates as Doc[]).some((x) => x.file_name === 'layout.html')).toBe(true);
  });

  it('embeds assets with a typed file link and a delete link, and no self', async () => {
    const theme = await t.json('/shops/1/theme.json');
    for (const asset of theme._embedded.assets as Doc[]) {
      expect(asset).toMatchObject({ _class: ['themeAsset'], content_type: expect.stringMatching(/^image\//) });
      expect(asset.digest).toMatch(/^[0-9a-f]{32}$/);
      expect(asset.file_size).toBeGreaterThan(0);
      expect(rels(asset)).toEqual(['file', 'svc:delete_theme_asset']);
      expect(asset._links.file.type).toBe(asset.content_type);
      expect(asset._links.file.href.startsWith(`${t.server.origin}/static/`)).toBe(true);
      expect(asset._links['svc:delete_theme_asset']).toEqual({
        href: `${t.base}/themes/1/assets/${asset.id}`,
        method: 'delete',
        title: expect.any(String),
      });
    }
  });

  it('is the same document as the theme’s self', async () => {
    const a = await t.call('/shops/1/theme.json');
    const b = await t.call('/themes/1');
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
    expect(await b.text()).toBe(await a.text());
  });

  it('answers 304 to If-None-Match and If-Modified-Since, also with Cache-Control: no-cache', async () => {
    const first = await t.call('/shops/1/theme.json');
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    const byTag = await t.call('/shops/1/theme.json', {
      headers: { 'if-none-match': etag, 'cache-control': 'no-cache' },
    });
    expect(byTag.status).toBe(304);
    expect(byTag.headers.get('etag')).toBe(etag);
    expect(await byTag.text()).toBe('');
    const byDate = await t.call('/themes/1', { headers: { 'if-modified-since': lastModified } });
    expect(byDate.status).toBe(304);
    const other = await t.call('/themes/1', { headers: { 'if-none-match': '"other"' } });
    expect(other.status).toBe(200);
  });

  it('answers HEAD with the headers only', async () => {
    const get = await t.call('/shops/1/theme.json');
    const head = await t.call('/shops/1/theme.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(await head.text()).toBe('');
  });

  it('answers JSONP, with the token as a query parameter', async () => {
    const json = await (await t.call('/shops/1/theme.json')).text();
    const response = await t.call(`/shops/1/theme.jsonp?callback=render&access_token=${t.admin}`, { token: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe(`/**/render(${json});`);
    expect((await t.call('/themes/1.jsonp?callback=alert(1)')).status).toBe(400);
  });

  it('is for the shop’s administrator with an admin token: 401, 403, and 404 for other people’s shops', async () => {
    const none = await t.call('/shops/1/theme.json', { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="storefront"/);
    const publicOnly = await t.call('/shops/1/theme.json', { token: t.publicToken });
    expect(publicOnly.status).toBe(403);
    expect(publicOnly.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
    // Shop 3 is public and belongs to someone else: its theme is still nobody else's business.
    expect((await t.call('/shops/3/theme.json')).status).toBe(404);
    expect((await t.call('/themes/3')).status).toBe(404);
    expect((await t.call('/shops/3/theme.json', { token: t.otherAdmin })).status).toBe(200);
    expect((await t.call('/themes/1', { token: t.otherAdmin })).status).toBe(404);
    expect((await t.call('/shops/999/theme.json')).status).toBe(404);
    expect((await t.call('/themes/999')).status).toBe(404);
    const error = await t.json('/themes/999', { status: 404 });
    expect(error).toMatchObject({ _class: ['errors'], message: expect.any(String) });
  });

  it('answers 405 with Allow for a verb the theme does not take', async () => {
    const response = await t.call('/themes/1', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toMatch(/GET/);
    expect(response.headers.get('allow')).toMatch(/PUT/);
  });
});

describe('PUT {base}/themes/{id}', () => {
  it('updates the title and settings, moving the validators', async () => {
    const before = await t.call('/themes/2');
    const settings = { accent: '#0a7', nested: { list: [1, 'two', null], on: true } };
    const updated = await t.json('/themes/2', { method: 'PUT', json: { title: 'Autumn', settings }, status: 200 });
    expect(updated).toMatchObject({ _class: ['theme'], id: '2', title: 'Autumn', settings });
    expect(Date.parse(updated.updated_on)).toBeGreaterThan(Date.parse((await before.json()).updated_on));
    const read = await t.call('/shops/2/theme.json');
    expect(read.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(await read.json()).toMatchObject({ title: 'Autumn', settings });
    // Only what is sent changes.
    const titled = await t.json('/themes/2', { method: 'PUT', json: { title: 'Winter' }, status: 200 });
    expect(titled).toMatchObject({ title: 'Winter', settings });
  });

  it('honours If-Match: 412 when the theme changed, nothing written', async () => {
    const current = await t.call('/themes/2');
    const etag = current.headers.get('etag')!;
    const stale = await t.call('/themes/2', {
      method: 'PUT',
      json: { title: 'Stale' },
      headers: { 'if-match': '"stale"' },
    });
    expect(stale.status).toBe(412);
    const invalid = { method: 'PUT', json: { title: 42 }, headers: { 'if-match': '"stale"' } } as const;
    expect((await t.call('/themes/2', invalid)).status).toBe(412);
    expect((await t.call('/themes/2')).headers.get('etag')).toBe(etag);
    const fresh = await t.call('/themes/2', { method: 'PUT', json: { title: 'Fresh' }, headers: { 'if-match': etag } });
    expect(fresh.status).toBe(200);
  });

  it.each([
    ['malformed JSON', '{"title":', 400, undefined],
    ['a JSON array', '[]', 400, undefined],
    ['an unknown field', JSON.stringify({ titel: 'x' }), 422, 'titel'],
    ['a __proto__ key', '{"__proto__":{"title":"x"}}', 422, '__proto__'],
    ['a nested __proto__ key', '{"settings":{"a":{"__proto__":{"admin":true}}}}', 422, 'settings'],
    ['settings that are not an object', JSON.stringify({ settings: [1] }), 422, 'settings'],
    ['a number as title', JSON.stringify({ title: 5 }), 422, 'title'],
    ['an empty title', JSON.stringify({ title: '  ' }), 422, 'title'],
    ['settings nested 60 000 deep', `{"settings":{"a":${'['.repeat(60_000)}${']'.repeat(60_000)}}}`, 422, 'settings'],
    ['settings over 64 KiB', JSON.stringify({ settings: { big: 'x'.repeat(70_000) } }), 413, undefined],
  ])('refuses %s (%i) and stores nothing', async (_, body, status, field) => {
    const before = await t.call('/themes/2');
    const response = await t.call('/themes/2', {
      method: 'PUT',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(status);
    const error = (await response.json()) as Doc;
    expect(error._class).toEqual(['errors']);
    if (field) expect(error._embedded.errors[0].field).toBe(field);
    expect((await t.call('/themes/2')).headers.get('etag')).toBe(before.headers.get('etag'));
  });

  it('answers 415 to a body that is not JSON', async () => {
    const response = await t.call('/themes/2', {
      method: 'PUT',
      body: 'title=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(415);
  });
});

describe('development theme', () => {
  it('is created from the production theme (201 + Location), then returned as is (200)', async () => {
    const production = await t.json('/shops/1/theme.json');
    const response = await t.call('/shops/1/themes', { method: 'POST' });
    expect(response.status).toBe(201);
    const dev = (await response.json()) as Doc;
    expect(response.headers.get('location')).toBe(`${t.base}/themes/${dev.id}`);
    expect(dev).toMatchObject({ _class: ['theme'], production: false, settings: production.settings });
    expect(dev.id).not.toBe(production.id);
    const strip = (list: Doc[], keys: string[]) =>
      list
        .map((x) => Object.fromEntries(keys.map((k) => [k, x[k]])))
        .sort((a, b) => a.file_name.localeCompare(b.file_name));
    const templateKeys = ['file_name', 'body', 'content_type'];
    expect(strip(dev._embedded.templates, templateKeys)).toEqual(strip(production._embedded.templates, templateKeys));
    const assetKeys = ['file_name', 'digest', 'file_size', 'content_type'];
    expect(strip(dev._embedded.assets, assetKeys)).toEqual(strip(production._embedded.assets, assetKeys));
    // The copies' bytes are there too.
    for (const asset of dev._embedded.assets as Doc[]) {
      const file = await fetch(asset._links.file.href);
      expect(file.status).toBe(200);
      expect(Number(file.headers.get('content-length') ?? (await file.arrayBuffer()).byteLength)).toBe(asset.file_size);
    }
    const again = await t.call('/shops/1/themes', { method: 'POST' });
    expect(again.status).toBe(200);
    expect(((await again.json()) as Doc).id).toBe(dev.id);
  });

  it('is linked from the production theme as svc:dev_theme with its title, instead of svc:create_dev_theme', async () => {
    const production = await t.json('/shops/1/theme.json');
    const dev = await t.json(production._links['svc:dev_theme'].href);
    expect(production._links['svc:create_dev_theme']).toBeUndefined();
    expect(production._links['svc:dev_theme']).toEqual({ href: `${t.base}/themes/${dev.id}`, title: dev.title });
    expect(dev.production).toBe(false);
    // Shop 2 has none yet.
    const other = await t.json('/shops/2/theme.json');
    expect(other._links['svc:dev_theme']).toBeUndefined();
    expect(other._links['svc:create_dev_theme']).toBeDefined();
  });

  it('changes independently of the production theme', async () => {
    const production = await t.json('/shops/1/theme.json');
    const dev = await t.json(production._links['svc:dev_theme'].href);
    const layout = (dev._embedded.templates as Doc[]).find((x) => x.file_name === 'layout.html')!;
    await t.json(layout._links.self.href, { method: 'PUT', json: { body: '<html>dev</html>' }, status: 200 });
    const after = await t.json('/shops/1/theme.json');
    const prodLayout = (after._embedded.templates as Doc[]).find((x) => x.file_name === 'layout.html')!;
    expect(prodLayout.body).not.toBe('<html>dev</html>');
  });

  it('is 404 for shops of other people', async () => {
    expect((await t.call('/shops/3/themes', { method: 'POST' })).status).toBe(404);
    expect((await t.call('/shops/1/themes', { method: 'POST', token: t.publicToken })).status).toBe(403);
  });
});
