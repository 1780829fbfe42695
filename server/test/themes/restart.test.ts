import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJsonStore } from '../../src/store/json/json-file.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { demoData, startThemeServer } from './fixture.js';

const tempDir = useTempDir();
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC';

describe('theme data on the JSON file store', () => {
  it('survives a restart: templates, assets and their bytes, settings, the development theme', async () => {
    const path = join(await tempDir(), 'data.json');
    const open = () => createJsonStore(path, { initial: demoData });

    const store = await open();
    let t = await startThemeServer({ data: store });
    const template = await t.json('/themes/1/templates', {
      method: 'POST',
      json: { file_name: 'kept.html', body: '<p>kept</p>' },
      status: 201,
    });
    const asset = await t.json('/themes/1/assets', {
      method: 'POST',
      json: { file_name: 'kept.png', data: PNG_1PX },
      status: 201,
    });
    await t.json('/themes/1', { method: 'PUT', json: { settings: { kept: true } }, status: 200 });
    const dev = await t.json('/shops/1/themes', { method: 'POST', status: 201 });
    const before = await t.call('/shops/1/theme.json');
    const beforeText = await before.text();
    await t.server.close();
    await store.close();

    const reopened = await open();
    expect(reopened.created).toBe(false);
    t = await startThemeServer({ data: reopened });
    try {
      const after = await t.call('/shops/1/theme.json');
      // Same data, same bytes (only the origin may differ: the new server listens on another port).
      const origin = (text: string) => text.replaceAll(/http:\/\/127\.0\.0\.1:\d+/g, 'ORIGIN');
      expect(origin(await after.text())).toBe(origin(beforeText));
      expect((await t.json(`/themes/1/templates/${template.id}`)).body).toBe('<p>kept</p>');
      const theme = await t.json('/themes/1');
      expect(theme.settings).toEqual({ kept: true });
      expect(theme._links['svc:dev_theme'].href).toBe(`${t.base}/themes/${dev.id}`);
      const file = (theme._embedded.assets as { id: string; _links: { file: { href: string } } }[]).find(
        (a) => a.id === asset.id,
      )!;
      const bytes = new Uint8Array(await (await fetch(file._links.file.href)).arrayBuffer());
      expect(btoa(String.fromCharCode(...bytes))).toBe(PNG_1PX);
    } finally {
      await t.server.close();
      await reopened.close();
    }
  });
});
