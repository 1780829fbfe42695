import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer } from '../../src/create-server.js';
import { createJsonStore } from '../../src/store/json/json-file.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { type Doc, demoData, startThemeServer } from './fixture.js';

const tempDir = useTempDir();
afterEach(() => {
  vi.restoreAllMocks();
});

describe('assets whose bytes are not there', () => {
  it('answer 404 with a log line naming the asset, never a 200 cached for a year; they can still be deleted', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const t = await startThemeServer();
    try {
      const assets = (await t.json('/themes/1'))._embedded.assets as Doc[];
      const [gone, altered] = assets;
      await t.server.store.write((tx) => {
        tx.delete('files', gone!.id);
        tx.update('files', altered!.id, { data: '' });
      });
      for (const asset of [gone!, altered!]) {
        const response = await fetch(asset._links.file.href);
        expect(response.status).toBe(404);
        expect(response.headers.get('cache-control') ?? '').not.toContain('immutable');
      }
      const logged = errors.mock.calls.map((call) => String(call[0]));
      expect(logged.some((line) => line.includes(`asset ${gone!.id} (${gone!.file_name}`))).toBe(true);
      expect(logged.some((line) => line.includes(`asset ${altered!.id} (`) && line.includes('do not match'))).toBe(
        true,
      );
      const deleted = await t.call(`/themes/1/assets/${gone!.id}`, {
        method: 'DELETE',
        headers: { 'if-match': `"${gone!.digest}"` },
      });
      expect(deleted.status).toBe(204);
    } finally {
      await t.server.close();
    }
  });

  it('are reported and removed when the server opens the data, one line each', async () => {
    const path = join(await tempDir(), 'db.json');
    const store = await createJsonStore(path, { initial: demoData, sync: false });
    const [gone, altered] = store.where('assets', 'theme_id', '1');
    await store.write((tx) => {
      tx.delete('files', gone!.id);
      tx.update('files', altered!.id, { data: 'AAAA' });
    });
    const kept = store.all('assets').length - 2;
    await store.close();

    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const server = await createServer({ port: 0, data: path });
    try {
      const lines = warnings.mock.calls.map((call) => String(call[0]));
      expect(lines).toEqual([
        expect.stringMatching(new RegExp(`asset ${gone!.id} \\(${gone!.file_name} of theme 1\\): .*missing.*removed`)),
        expect.stringMatching(new RegExp(`asset ${altered!.id} \\(.*do not match.*removed`)),
      ]);
      expect(server.store.get('assets', gone!.id)).toBeUndefined();
      expect(server.store.get('files', altered!.id)).toBeUndefined();
      expect(server.store.all('assets')).toHaveLength(kept);
    } finally {
      await server.close();
    }
  });
});
