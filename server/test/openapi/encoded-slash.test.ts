/**
 * Theme files whose name holds `/` (`images/logo.png`), reached the way a client generated from the document
 * reaches them: openapi-fetch puts each path parameter through `encodeURIComponent`, so the slash travels as `%2F`.
 */
import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer({ products: 2 });

const ASSET_PATH = '/static/themes/{theme_id}/assets/{digest}/{file_name}';
const PREVIEW_FILE_PATH = '/static/themes/{theme_id}/preview/{key}/{file_name}';

/** A seeded asset whose name holds a folder, and its theme. */
function nestedAsset() {
  const { store } = server();
  const asset = store.all('assets').find((a) => a.file_name.includes('/'));
  if (!asset) throw new Error('the seed has no asset in a folder');
  return { asset, theme: store.get('themes', asset.theme_id)! };
}

describe('a generated client and file names that hold "/"', () => {
  it('the document declares those paths, and openapi-fetch reaches an asset and a preview file through them', async () => {
    const document = await (await fetch(`${server().baseUrl}/openapi.json`)).json();
    expect(document.paths[ASSET_PATH]?.get).toBeDefined();
    expect(document.paths[PREVIEW_FILE_PATH]?.get).toBeDefined();
    const client = createClient<Record<string, never>>({ baseUrl: server().origin });
    const { asset, theme } = nestedAsset();
    // biome-ignore lint/suspicious/noExplicitAny: the paths are read from the served document, untyped here
    const get = client.GET as any;
    const file = await get(ASSET_PATH, {
      params: { path: { theme_id: theme.id, digest: asset.digest, file_name: asset.file_name } },
      parseAs: 'arrayBuffer',
    });
    expect(file.response.url).toContain(encodeURIComponent(asset.file_name));
    expect(file.response.status).toBe(200);
    expect(file.response.headers.get('content-type')).toBe(asset.content_type);
    expect(file.data.byteLength).toBeGreaterThan(0);
    const preview = await get(PREVIEW_FILE_PATH, {
      params: { path: { theme_id: theme.id, key: theme.preview_key, file_name: asset.file_name } },
      parseAs: 'arrayBuffer',
    });
    expect(preview.response.status).toBe(200);
    expect(new Uint8Array(preview.data)).toEqual(new Uint8Array(file.data));
  });

  it('reads an encoded slash as a slash and nothing else: path tricks still find no file', async () => {
    const { asset, theme } = nestedAsset();
    const base = `${server().origin}/static/themes/${theme.id}`;
    const [folder, name] = asset.file_name.split('/') as [string, string];
    const status = async (path: string) => (await fetch(`${base}${path}`)).status;
    expect(await status(`/assets/${asset.digest}/${folder}%2f${name}`)).toBe(200);
    for (const trick of [
      `${folder}%2F..%2F${folder}%2F${name}`,
      `..%2F${folder}%2F${name}`,
      `${folder}%2F%2E%2E%2F${folder}%2F${name}`,
      `${folder}%5C${name}`,
      `%2F${folder}%2F${name}`,
      `${folder}%2F%2F${name}`,
    ]) {
      expect(await status(`/assets/${asset.digest}/${trick}`), trick).toBe(404);
      expect(await status(`/preview/${theme.preview_key}/${trick}`), trick).toBe(404);
    }
  });
});
