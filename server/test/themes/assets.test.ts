import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gif, png } from '../../src/seed/images.js';
import { sampleWoff2 } from '../helpers/asset-samples.js';
import { type Doc, useThemeServer } from './fixture.js';

const t = useThemeServer();

const assets = '/themes/2/assets';
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const utf8 = (text: string) => new TextEncoder().encode(text);

// Copies typed on a plain ArrayBuffer, as `Blob` parts must be.
const PNG = new Uint8Array(png(20, 10, (x, y) => [x * 12, y * 25, 200]));
const GIF = new Uint8Array(
  gif(
    8,
    8,
    [
      [255, 255, 255],
      [0, 0, 0],
    ],
    (x, y) => (x + y) % 2,
  ),
);
const SVG = utf8(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>',
);
const WOFF2 = sampleWoff2();

const themeTag = async () => (await t.call('/themes/2')).headers.get('etag');
const assetNamed = async (fileName: string) =>
  ((await t.json('/themes/2'))._embedded.assets as Doc[]).find((a) => a.file_name === fileName);

async function upload(fileName: string, bytes: Uint8Array, status = 201): Promise<Doc> {
  return t.json(assets, { method: 'POST', json: { file_name: fileName, data: base64(bytes) }, status });
}

async function fetchFile(asset: Doc, headers?: HeadersInit) {
  const response = await fetch(asset._links.file.href, { headers });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('uploading an asset as base64 JSON', () => {
  it('stores the file: 201, digest and size, bytes identical when fetched back from the file link', async () => {
    const before = await themeTag();
    const asset = await upload('images/hero.png', PNG);
    expect(asset).toMatchObject({
      _class: ['themeAsset'],
      file_name: 'images/hero.png',
      content_type: 'image/png',
      file_size: PNG.byteLength,
      digest: md5(PNG),
    });
    expect(asset._links.self).toBeUndefined();
    expect(asset._links.file.type).toBe('image/png');
    expect(await themeTag()).not.toBe(before);
    const { response, bytes } = await fetchFile(asset);
    expect(response.status).toBe(200);
    expect(bytes).toEqual(PNG);
    expect(md5(bytes)).toBe(asset.digest);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toMatch(/max-age=31536000/);
    expect(response.headers.get('cache-control')).toMatch(/immutable/);
    expect(response.headers.get('etag')).toBe(`"${asset.digest}"`);
    expect(await assetNamed('images/hero.png')).toMatchObject({ id: asset.id, digest: asset.digest });
  });

  it('serves the file with 304 for its ETag, and HEAD without a body', async () => {
    const asset = await upload('images/small.gif', GIF);
    const { response } = await fetchFile(asset);
    const etag = response.headers.get('etag')!;
    const again = await fetchFile(asset, { 'if-none-match': etag });
    expect(again.response.status).toBe(304);
    expect(again.bytes.byteLength).toBe(0);
    const head = await fetch(asset._links.file.href, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/gif');
  });

  it('tolerates line breaks and a data: URL prefix', async () => {
    const wrapped = base64(PNG).replace(/.{76}/g, '$&\r\n');
    const asset = await t.json(assets, {
      method: 'POST',
      json: { file_name: 'wrapped.png', data: `data:image/png;base64,${wrapped}` },
      status: 201,
    });
    expect(asset.digest).toBe(md5(PNG));
    expect((await fetchFile(asset)).bytes).toEqual(PNG);
  });

  it('replaces the asset of the same file name (200): same id, new digest and file URL, old URL gone', async () => {
    const first = await upload('images/swap.png', PNG);
    const other = png(3, 3, () => [1, 2, 3]);
    const second = await upload('images/swap.png', other, 200);
    expect(second.id).toBe(first.id);
    expect(second.digest).toBe(md5(other));
    expect(second._links.file.href).not.toBe(first._links.file.href);
    expect((await fetchFile(first)).response.status).toBe(404);
    expect((await fetchFile(second)).bytes).toEqual(other);
    const theme = await t.json('/themes/2');
    expect((theme._embedded.assets as Doc[]).filter((a) => a.file_name === 'images/swap.png')).toHaveLength(1);
  });

  it('serves SVG with a sandboxing Content-Security-Policy and fonts with their font type', async () => {
    const svg = await upload('icons/star.svg', SVG);
    expect(svg.content_type).toBe('image/svg+xml');
    const { response } = await fetchFile(svg);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('content-security-policy')).toMatch(/(^|; )sandbox(;|$)/);
    const font = await upload('fonts/body.woff2', WOFF2);
    expect(font.content_type).toBe('font/woff2');
    expect((await fetchFile(font)).response.headers.get('content-type')).toBe('font/woff2');
  });
});

describe('uploading an asset as multipart/form-data', () => {
  it('stores the file part under its file name (201), or under a file_name field', async () => {
    const form = new FormData();
    form.set('file', new Blob([PNG], { type: 'image/png' }), 'multi.png');
    const response = await t.call(assets, { method: 'POST', body: form });
    expect(response.status).toBe(201);
    const asset = (await response.json()) as Doc;
    expect(asset).toMatchObject({ file_name: 'multi.png', digest: md5(PNG), file_size: PNG.byteLength });
    expect((await fetchFile(asset)).bytes).toEqual(PNG);

    const named = new FormData();
    named.set('file', new Blob([GIF]), 'upload.bin');
    named.set('file_name', 'images/named.gif');
    const renamed = await t.json(assets, { method: 'POST', body: named, status: 201 });
    expect(renamed).toMatchObject({ file_name: 'images/named.gif', content_type: 'image/gif' });
  });
});

describe('bad uploads: each gets its 4xx and nothing is stored', () => {
  const json = (body: unknown) => ({ method: 'POST', json: body });
  const form = (fill: (f: FormData) => void) => {
    const f = new FormData();
    fill(f);
    return { method: 'POST', body: f };
  };
  const big = new Uint8Array(1024 * 1024 + 1);
  big.set(PNG);
  const cases: [string, number, string | undefined, () => RequestInit & { json?: unknown }][] = [
    ['a PNG named .gif', 422, 'data', () => json({ file_name: 'fake.gif', data: base64(PNG) })],
    ['a bare PNG signature', 422, 'data', () => json({ file_name: 'x.png', data: base64(PNG.subarray(0, 8)) })],
    ['a PNG named .gif (multipart)', 422, 'file', () => form((f) => f.set('file', new Blob([PNG]), 'fake.gif'))],
    [
      'text named .svg',
      422,
      'data',
      () => json({ file_name: 'x.svg', data: base64(utf8('<html><script>1</script>')) }),
    ],
    ['bad base64', 422, 'data', () => json({ file_name: 'x.png', data: 'iVBOR*w0KGgo=' })],
    [
      'URL-safe base64',
      422,
      'data',
      () => json({ file_name: 'x.png', data: base64(PNG).replace(/\+/g, '-').replace(/\//g, '_') + '-_' }),
    ],
    ['an empty file', 422, 'data', () => json({ file_name: 'x.png', data: '' })],
    ['an executable', 422, 'file_name', () => json({ file_name: 'x.exe', data: base64(PNG) })],
    ['a parent path', 422, 'file_name', () => json({ file_name: '../x.png', data: base64(PNG) })],
    ['an encoded slash', 422, 'file_name', () => json({ file_name: 'a%2Fx.png', data: base64(PNG) })],
    ['a backslash', 422, 'file_name', () => json({ file_name: 'a\\x.png', data: base64(PNG) })],
    ['a NUL', 422, 'file_name', () => json({ file_name: 'x.png\u0000.gif', data: base64(PNG) })],
    [
      'a __proto__ key',
      422,
      '__proto__',
      () => ({
        method: 'POST',
        body: `{"file_name":"x.png","data":"${base64(PNG)}","__proto__":{}}`,
        headers: { 'content-type': 'application/json' },
      }),
    ],
    [
      'an unknown field',
      422,
      'content_type',
      () => json({ file_name: 'x.png', data: base64(PNG), content_type: 'image/png' }),
    ],
    ['a number as data', 422, 'data', () => json({ file_name: 'x.png', data: 7 })],
    ['a missing file_name', 422, 'file_name', () => json({ data: base64(PNG) })],
    [
      'an unknown form field',
      422,
      'folder',
      () =>
        form((f) => {
          f.set('file', new Blob([PNG]), 'x.png');
          f.set('folder', 'a');
        }),
    ],
    ['a text file part', 422, 'file', () => form((f) => f.set('file', 'iVBOR'))],
    [
      'two file parts',
      422,
      'file',
      () =>
        form((f) => {
          f.append('file', new Blob([PNG]), 'a.png');
          f.append('file', new Blob([PNG]), 'b.png');
        }),
    ],
    ['no file part', 422, 'file', () => form((f) => f.set('file_name', 'x.png'))],
    ['a file over 1 MiB', 413, undefined, () => json({ file_name: 'big.png', data: base64(big) })],
    ['a file over 1 MiB (multipart)', 413, undefined, () => form((f) => f.set('file', new Blob([big]), 'big.png'))],
    [
      'a body over the server cap',
      413,
      undefined,
      () => json({ file_name: 'big.png', data: 'A'.repeat(3 * 1024 * 1024) }),
    ],
    [
      'malformed JSON',
      400,
      undefined,
      () => ({ method: 'POST', body: '{"file_name":', headers: { 'content-type': 'application/json' } }),
    ],
    [
      'a broken multipart body',
      400,
      undefined,
      () => ({
        method: 'POST',
        body: '--x\r\nnonsense',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      }),
    ],
    [
      'a form-urlencoded body',
      415,
      undefined,
      () => ({
        method: 'POST',
        body: 'file_name=x.png',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ],
  ];

  it.each(cases)('%s → %i', async (_, status, field, init) => {
    const before = await themeTag();
    const count = t.server.store.all('assets').length;
    const files = t.server.store.all('files').length;
    const response = await t.call(assets, init());
    expect(response.status).toBe(status);
    const error = (await response.json()) as Doc;
    expect(error._class).toEqual(['errors']);
    if (field) expect(error._embedded.errors).toEqual([{ field, messages: [expect.any(String)] }]);
    expect(await themeTag()).toBe(before);
    expect([t.server.store.all('assets').length, t.server.store.all('files').length]).toEqual([count, files]);
  });
});

describe('deleting an asset', () => {
  it('removes it and its file (204); then 404', async () => {
    const asset = await upload('images/bye.png', PNG);
    const before = await themeTag();
    const response = await t.call(asset._links['svc:delete_theme_asset'].href, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await themeTag()).not.toBe(before);
    expect(await assetNamed('images/bye.png')).toBeUndefined();
    expect((await fetchFile(asset)).response.status).toBe(404);
    expect(t.server.store.get('files', asset.id)).toBeUndefined();
    expect((await t.call(asset._links['svc:delete_theme_asset'].href, { method: 'DELETE' })).status).toBe(404);
  });

  it('honours If-Match against the file’s ETag (412 when the file was replaced)', async () => {
    const asset = await upload('images/guarded.png', PNG);
    const { response } = await fetchFile(asset);
    const etag = response.headers.get('etag')!;
    await upload(
      'images/guarded.png',
      png(2, 2, () => [9, 9, 9]),
      200,
    );
    const url = asset._links['svc:delete_theme_asset'].href;
    expect((await t.call(url, { method: 'DELETE', headers: { 'if-match': etag } })).status).toBe(412);
    expect(await assetNamed('images/guarded.png')).toBeDefined();
    const current = (await assetNamed('images/guarded.png'))!;
    expect((await t.call(url, { method: 'DELETE', headers: { 'if-match': `"${current.digest}"` } })).status).toBe(204);
  });

  it('is 404 for other people’s assets and through another theme', async () => {
    const theirs = (await t.json('/shops/3/theme.json', { token: t.otherAdmin }))._embedded.assets[0] as Doc;
    expect((await t.call(theirs._links['svc:delete_theme_asset'].href, { method: 'DELETE' })).status).toBe(404);
    const mine = await upload('images/mine.png', PNG);
    expect((await t.call(`/themes/1/assets/${mine.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await assetNamed('images/mine.png')).toBeDefined();
    expect(
      (await t.call(assets, { method: 'POST', json: { file_name: 'x.png', data: base64(PNG) }, token: t.publicToken }))
        .status,
    ).toBe(403);
  });
});

describe('static file addresses', () => {
  it('are 404 for a wrong digest, a wrong theme, an encoded path or an unknown file', async () => {
    const asset = await upload('images/static.png', PNG);
    const href: string = asset._links.file.href;
    const variants = [
      href.replace(asset.digest, md5(GIF)),
      href.replace('/themes/2/', '/themes/1/'),
      href.replace('images%2Fstatic.png', 'images%5Cstatic.png'),
      href.replace('images%2Fstatic.png', 'images%2F..%2Fimages%2Fstatic.png'),
      href.replace('static.png', 'missing.png'),
    ];
    for (const url of variants) expect([url, (await fetch(url)).status]).toEqual([url, 404]);
    expect((await fetch(href, { method: 'POST' })).status).toBe(405);
  });
});
