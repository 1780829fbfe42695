import { describe, expect, it } from 'vitest';
import {
  MAX_ASSET_BYTES_PER_THEME,
  MAX_ASSETS_PER_THEME,
  MAX_TEMPLATES_PER_THEME,
} from '../../src/api/themes/theme.js';
import type { Dataset } from '../../src/store/types.js';
import { demoData, useThemeServer } from './fixture.js';

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC';

/** Theme 1 full of templates, theme 2 full of assets, shop 3's theme with one huge asset (metadata only). */
function dataAtTheLimits(): Dataset {
  const data = demoData();
  const stamp = '2026-01-01T00:00:00.000Z';
  const count = (themeId: string) => data.templates.filter((x) => x.theme_id === themeId).length;
  for (let i = count('1'); i < MAX_TEMPLATES_PER_THEME; i++) {
    data.templates.push({
      id: `fill-${i}`,
      theme_id: '1',
      file_name: `fill/t${i}.html`,
      body: '',
      created_on: stamp,
      updated_on: stamp,
    });
  }
  const assets = data.assets.filter((a) => a.theme_id === '2').length;
  for (let i = assets; i < MAX_ASSETS_PER_THEME; i++) {
    data.assets.push({
      id: `fill-${i}`,
      theme_id: '2',
      file_name: `fill/a${i}.png`,
      content_type: 'image/png',
      digest: '0'.repeat(32),
      file_size: 1,
      created_on: stamp,
      updated_on: stamp,
    });
  }
  const huge = data.assets.find((a) => a.theme_id === '3')!;
  huge.file_size = MAX_ASSET_BYTES_PER_THEME - 10;
  return data;
}
const t = useThemeServer({ data: dataAtTheLimits() });

describe('how much a theme may hold', () => {
  it('refuses a template past the count (422 on file_name), still updates existing ones', async () => {
    const error = await t.json('/themes/1/templates', {
      method: 'POST',
      json: { file_name: 'one-more.html', body: '' },
      status: 422,
    });
    expect(error._embedded.errors[0].field).toBe('file_name');
    await t.json('/themes/1/templates', {
      method: 'POST',
      json: { file_name: 'fill/t999.html', body: 'x' },
      status: 200,
    });
  });

  it('refuses an asset past the count (422), still replaces existing ones', async () => {
    const error = await t.json('/themes/2/assets', {
      method: 'POST',
      json: { file_name: 'one-more.png', data: PNG_1PX },
      status: 422,
    });
    expect(error._embedded.errors[0].field).toBe('file_name');
    await t.json('/themes/2/assets', {
      method: 'POST',
      json: { file_name: 'fill/a299.png', data: PNG_1PX },
      status: 200,
    });
  });

  it('refuses an asset past the total size (413)', async () => {
    const response = await t.call('/themes/3/assets', {
      method: 'POST',
      json: { file_name: 'over.png', data: PNG_1PX },
      token: t.otherAdmin,
    });
    expect(response.status).toBe(413);
  });
});
