/** Themes, templates, assets and their files, the development theme and the preview, reads and writes. */

import { encodeBase64 } from '@storefront-platform/sdk/internal';
import { expect } from 'vitest';
import { gif, png } from '../../../server/src/seed/images.js';
import { BASE } from '../fixture.js';
import type { ContractCase } from './types.js';

const PNG = new Uint8Array(png(6, 4, (x, y) => [x * 40, y * 60, 90]));
const GIF = new Uint8Array(
  gif(
    4,
    4,
    [
      [255, 255, 255],
      [0, 0, 0],
    ],
    (x, y) => (x + y) % 2,
  ),
);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>');

export const themeCases: ContractCase[] = [
  {
    name: 'theme reads: production theme, theme by id, embedded templates and assets, template, 404s',
    async run(s) {
      const admin = await s.token('admin');
      const theme = await s.send('shop theme', `${BASE}/shops/1/theme.json`, { token: admin });
      expect(theme.headers.get('x-oauth-scopes')).toBe('admin');
      const doc = theme.json();
      await s.send('theme through self', doc._links.self.href, { token: admin });
      await s.send('theme HEAD', doc._links.self.href, { method: 'HEAD', token: admin });
      const template = doc._embedded.templates[0];
      await s.send('template through self', template._links.self.href, { token: admin });
      await s.send('template as JSONP', `${BASE}/themes/1/templates/1.jsonp?callback=cb`, { token: admin });
      expect((await s.send('theme of another user', `${BASE}/shops/3/theme.json`, { token: admin })).status).toBe(404);
      await s.send('template through another theme', `${BASE}/themes/2/templates/1`, { token: admin });
      await s.send('unknown theme', `${BASE}/themes/99`, { token: admin });
    },
  },
  {
    name: 'theme update: title and settings, unknown members, validators moving',
    async run(s) {
      const admin = await s.token('admin');
      const theme = `${BASE}/themes/1`;
      const updated = await s.send('update', theme, {
        method: 'PUT',
        token: admin,
        json: { title: 'Spring', settings: { accent_color: '#123456' } },
      });
      expect(updated.status).toBe(200);
      await s.send('unknown member', theme, { method: 'PUT', token: admin, json: { titel: 'typo' } });
      await s.send('settings not an object', theme, { method: 'PUT', token: admin, json: { settings: 'x' } });
      await s.send('theme after', theme, { token: admin });
    },
  },
  {
    name: 'templates: create, upsert, update with the lost-update guard, rename, delete, layout.html kept',
    async run(s) {
      const admin = await s.token('admin');
      const templates = `${BASE}/themes/1/templates`;
      const created = await s.send('create', templates, {
        token: admin,
        json: { file_name: 'css/extra.css', body: 'body { margin: 0 }' },
      });
      expect(created.status).toBe(201);
      const template = created.json();
      const seconds = Math.floor(Date.parse(template.updated_on) / 1000);
      await s.send('upsert by file name', templates, {
        token: admin,
        json: { file_name: 'css/extra.css', body: 'body { margin: 1px }', last_updated_on: seconds },
      });
      const url = template._links.self.href;
      const stale = await s.send('stale guard', url, {
        method: 'PUT',
        token: admin,
        json: { body: 'lost', last_updated_on: seconds - 3600 },
      });
      expect(stale.status).toBe(422);
      await s.send('rename', url, { method: 'PUT', token: admin, json: { file_name: 'css/renamed.css' } });
      await s.send('rename onto an existing file', url, {
        method: 'PUT',
        token: admin,
        json: { file_name: 'layout.html' },
      });
      await s.send('bad file name', templates, { token: admin, json: { file_name: '../x.html', body: '' } });
      await s.send('bad extension', templates, { token: admin, json: { file_name: 'x.php', body: '' } });
      expect((await s.send('delete', url, { method: 'DELETE', token: admin })).status).toBe(204);
      await s.send('deleted template', url, { token: admin });
      await s.send('delete layout.html', `${templates}/1`, { method: 'DELETE', token: admin });
      await s.send('theme after', `${BASE}/themes/1`, { token: admin });
    },
  },
  {
    name: 'assets: base64 and multipart uploads, replacement, the file bytes, bad uploads, delete',
    async run(s) {
      const admin = await s.token('admin');
      const assets = `${BASE}/themes/1/assets`;
      const uploaded = await s.send('base64 upload', assets, {
        token: admin,
        json: { file_name: 'images/dot.png', data: `data:image/png;base64,${encodeBase64(PNG)}` },
      });
      expect(uploaded.status).toBe(201);
      const file = uploaded.json()._links.file.href as string;
      const bytes = await s.send('file', file);
      expect(bytes.bytes).toEqual(PNG);
      await s.send('file revalidated', file, { headers: { 'if-none-match': bytes.headers.get('etag')! } });
      await s.send('file HEAD', file, { method: 'HEAD' });
      const form = new FormData();
      form.set('file', new Blob([GIF], { type: 'image/gif' }), 'images/dot.png');
      form.set('file_name', 'images/dot.gif');
      await s.send('multipart upload', assets, { token: admin, body: form });
      const notPng = await s.send('bytes that are not a PNG', assets, {
        token: admin,
        json: { file_name: 'images/dot.png', data: encodeBase64(PNG.slice().reverse()) },
      });
      expect(notPng.status).toBe(422);
      const replaced = await s.send('replace by file name', assets, {
        token: admin,
        json: { file_name: 'images/dot.png', data: encodeBase64(new Uint8Array(png(2, 2, () => [1, 2, 3]))) },
      });
      expect(replaced.status).toBe(200);
      await s.send('old file address', file);
      await s.send('svg', assets, { token: admin, json: { file_name: 'icon.svg', data: encodeBase64(SVG) } });
      const svg = (await s.send('theme', `${BASE}/themes/1`, { token: admin }))
        .json()
        ._embedded.assets.find((asset: { file_name: string }) => asset.file_name === 'icon.svg');
      await s.send('svg file', svg._links.file.href);
      await s.send('png named .gif', assets, { token: admin, json: { file_name: 'x.gif', data: encodeBase64(PNG) } });
      await s.send('not base64', assets, { token: admin, json: { file_name: 'x.png', data: '***' } });
      await s.send('unknown type', assets, { token: admin, json: { file_name: 'x.exe', data: encodeBase64(PNG) } });
      await s.send('empty file', assets, { token: admin, json: { file_name: 'x.png', data: '' } });
      const id = uploaded.json().id as string;
      expect((await s.send('delete', `${assets}/${id}`, { method: 'DELETE', token: admin })).status).toBe(204);
      await s.send('deleted asset file', file);
      await s.send('delete again', `${assets}/${id}`, { method: 'DELETE', token: admin });
    },
  },
  {
    name: 'development theme: created once from the production theme, then linked both ways',
    async run(s) {
      const admin = await s.token('admin');
      const created = await s.send('create', `${BASE}/shops/1/themes`, { method: 'POST', token: admin });
      expect(created.status).toBe(201);
      expect((await s.send('create again', `${BASE}/shops/1/themes`, { method: 'POST', token: admin })).status).toBe(
        200,
      );
      const production = (await s.send('production theme', `${BASE}/shops/1/theme.json`, { token: admin })).json();
      await s.send('dev theme link', production._links['svc:dev_theme'].href, { token: admin });
      await s.send('another user’s shop', `${BASE}/shops/3/themes`, { method: 'POST', token: admin });
    },
  },
  {
    name: 'preview: the page, its stylesheets, scripts and images by file name, revalidation, wrong keys',
    async run(s) {
      const admin = await s.token('admin');
      const theme = (await s.send('theme', `${BASE}/themes/1`, { token: admin })).json();
      const preview = theme._links['svc:theme_preview'].href as string;
      const page = await s.send('preview page', preview);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      for (const template of theme._embedded.templates) {
        await s.send(`preview ${template.file_name}`, `${preview}/${template.file_name}`);
      }
      for (const asset of theme._embedded.assets) {
        await s.send(`preview ${asset.file_name}`, `${preview}/${asset.file_name}`);
      }
      await s.send('preview revalidated', preview, { headers: { 'if-none-match': page.headers.get('etag')! } });
      await s.send('unknown file', `${preview}/nothing.css`);
      await s.send('wrong key', preview.replace(/\/preview\/[^/]+/, '/preview/wrong'));
    },
  },
];
