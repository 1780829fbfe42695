import { describe, expect, it } from 'vitest';
import type { JsonStore } from '../src/store/json/json-file.js';
import { crashData, crashRounds, TEMPLATES } from './helpers/crash-rounds.js';
import { useTempDir } from './helpers/temp-dir.js';

const tempDir = useTempDir();

/** A theme's content as a copy must reproduce it: templates and assets by file name. */
function contentOf(store: JsonStore, themeId: string) {
  const templates = store.where('templates', 'theme_id', themeId).map((t) => [t.file_name, t.body]);
  const assets = store.where('assets', 'theme_id', themeId).map((a) => [a.file_name, a.digest, a.file_size]);
  return { templates: templates.sort(), assets: assets.sort() };
}

describe('a development theme creation killed at random moments (SIGKILL)', () => {
  it('leaves, after the restart, the whole copy of the production theme or none, 20 rounds', async () => {
    const path = await crashData(await tempDir());
    let production: ReturnType<typeof contentOf> | undefined;
    /** Development themes found after a restart: each creation committed, so each has its event. */
    let created = 0;
    const report = await crashRounds({
      path,
      rounds: 20,
      request: (base, token) =>
        fetch(`${base}/shops/1/themes`, { method: 'POST', headers: { authorization: `Bearer ${token}` } }),
      async check(store, round, answer) {
        production ??= contentOf(store, '1');
        expect(production.templates).toHaveLength(TEMPLATES);
        expect(contentOf(store, '1')).toEqual(production);
        const dev = store.where('themes', 'shop_id', '1').filter((t) => !t.production);
        if (answer?.status === 201) expect(dev, `round ${round}: the acknowledged theme`).toHaveLength(1);
        expect(dev.length).toBeLessThanOrEqual(1);
        created += dev.length;
        const events = store.all('events').filter((e) => e.type === 'theme.created');
        expect(events, `round ${round}: one event per committed creation`).toHaveLength(created);
        if (dev.length === 0) return;
        expect((events.at(-1)!.data as { id: string }).id).toBe(dev[0]!.id);
        expect(contentOf(store, dev[0]!.id), `round ${round}: the development theme`).toEqual(production);
        // Ready for the next round: the theme goes, in one write.
        await store.write((tx) => {
          tx.delete('themes', dev[0]!.id);
          for (const t of tx.where('templates', 'theme_id', dev[0]!.id)) tx.delete('templates', t.id);
          for (const a of tx.where('assets', 'theme_id', dev[0]!.id)) {
            tx.delete('assets', a.id);
            tx.delete('files', a.id);
          }
        });
      },
    });
    console.log('development theme creation:', report);
    // Kills did fall in the middle of the copy: the test checks something.
    expect(report.replayed).toBeGreaterThan(0);
    expect(report.cut).toBeGreaterThan(0);
  }, 120_000);
});
