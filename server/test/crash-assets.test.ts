import { encodeBase64 } from '@storefront-platform/sdk/internal';
import { describe, expect, it } from 'vitest';
import { assetDigest } from '../src/api/themes/asset.js';
import { bigSvg, crashData, crashRounds } from './helpers/crash-rounds.js';
import { useTempDir } from './helpers/temp-dir.js';

const tempDir = useTempDir();
const ROUNDS = 20;
/** Large uploads, as in the report: the bytes take a while to reach the disk. */
const UPLOAD_BYTES = 900_000;

describe('asset writes killed at random moments (SIGKILL)', () => {
  it('an upload leaves, after the restart, the asset with its bytes or no asset; acknowledged ones are there', async () => {
    const path = await crashData(await tempDir());
    const files = Array.from({ length: ROUNDS + 1 }, (_, round) => bigSvg(`upload ${round}`, UPLOAD_BYTES));
    const acknowledged: number[] = [];
    const report = await crashRounds({
      path,
      rounds: ROUNDS,
      request: (base, token, round) =>
        fetch(`${base}/themes/1/assets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ file_name: `crash/upload-${round}.svg`, data: encodeBase64(files[round]!) }),
        }),
      check(store, round, answer) {
        if (answer?.status === 201) acknowledged.push(round);
        const uploaded = new Map(store.where('assets', 'theme_id', '1').map((a) => [a.file_name, a]));
        for (const earlier of acknowledged) {
          const asset = uploaded.get(`crash/upload-${earlier}.svg`);
          expect(asset?.digest, `round ${round}: the upload of round ${earlier}`).toBe(assetDigest(files[earlier]!));
        }
        // Exactly one event per upload that is there (the write and its event commit together), none for the others.
        const events = store.all('events').filter((e) => e.type === 'theme_asset.created');
        const named = events.map((e) => (e.data as { file_name: string }).file_name).sort();
        const present = [...uploaded.keys()].filter((name) => name.startsWith('crash/upload-')).sort();
        expect(named, `round ${round}: the upload events`).toEqual(present);
      },
    });
    console.log('asset upload:', report);
    expect(report.replayed).toBeGreaterThan(0);
    expect(report.acknowledged).toBeGreaterThan(1);
  }, 120_000);

  it('a deletion leaves, after the restart, the asset with its bytes or no asset; acknowledged ones are gone', async () => {
    const victims = Array.from({ length: ROUNDS + 1 }, (_, round) => bigSvg(`delete ${round}`, 200_000));
    const path = await crashData(await tempDir(), (data) => {
      for (const [round, bytes] of victims.entries()) {
        const id = `victim-${round}`;
        const stamp = '2026-01-01T00:00:00.000Z';
        data.assets.push({
          id,
          theme_id: '1',
          file_name: `crash/delete-${round}.svg`,
          content_type: 'image/svg+xml',
          digest: assetDigest(bytes),
          file_size: bytes.length,
          created_on: stamp,
          updated_on: stamp,
        });
        data.files.push({ id, data: encodeBase64(bytes) });
      }
    });
    const deleted: number[] = [];
    const report = await crashRounds({
      path,
      rounds: ROUNDS,
      request: (base, token, round) =>
        fetch(`${base}/themes/1/assets/victim-${round}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${token}` },
        }),
      check(store, round, answer) {
        if (answer?.status === 204) deleted.push(round);
        // One event per deletion that happened, none for a deletion the kill cut.
        const events = store.all('events').filter((e) => e.type === 'theme_asset.deleted');
        const gone = victims.map((_, n) => n).filter((n) => store.get('assets', `victim-${n}`) === undefined);
        expect(events.map((e) => (e.data as { id: string }).id).sort(), `round ${round}: the deletion events`).toEqual(
          gone.map((n) => `victim-${n}`).sort(),
        );
        for (const earlier of deleted)
          expect(store.get('assets', `victim-${earlier}`), `round ${round}`).toBeUndefined();
        for (let later = round + 1; later <= ROUNDS; later++)
          expect(store.get('assets', `victim-${later}`)).toBeDefined();
      },
    });
    console.log('asset deletion:', report);
    expect(report.replayed).toBeGreaterThan(0);
  }, 120_000);
});
