/**
 * The base copies `pull --merge` merges against: the texts of a push in one file (a pack), written once for the
 * same texts; a pack cut short is no base, removed, and written anew; a pull keeps what its manifest names, in one
 * pack, including what folders of earlier versions kept one file per text, and what the folder's other
 * environments' manifests name; the packs of many pushes (`watch`) are folded into one past 16.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseKeeper, baseReader, keepOnly, recordBases } from '../src/theme/base-copies.js';
import { md5 } from '../src/theme/digest.js';
import { ENVIRONMENT_MANIFESTS_DIR, MANIFEST_FILE, pathOf } from '../src/theme/layout.js';
import { type Manifest, writeManifest } from '../src/theme/manifest.js';

describe('base copies', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'storefront-bases-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const texts = Array.from({ length: 50 }, (_, i) => `<h1>Base ${i} 😀</h1>\n`.repeat(20 + i));
  const folder = () => join(dir, '.storefront/base');
  const copies = () => readdir(folder()).catch(() => [] as string[]);
  const push = async (pushed: readonly (string | Uint8Array)[]) => {
    const keeper = baseKeeper(dir);
    for (const text of pushed) keeper.keep(text);
    await keeper.done();
  };

  it('keeps the texts of a push in one file, and the same texts handed over again in no other', async () => {
    await push(texts);
    expect(await copies()).toHaveLength(1);
    await push([...texts].reverse().map((text) => Buffer.from(text)));
    expect(await copies()).toHaveLength(1);
    const read = baseReader(dir);
    for (const text of texts) expect(await read(md5(text))).toBe(text);
    expect(await read(md5('never kept'))).toBeUndefined();
    await push([texts[0]!]);
    expect(await copies()).toHaveLength(2);
  });

  it('reads a pack cut short as none for the texts it lost, removes it, and writes it anew when handed over again', async () => {
    await push(texts);
    const [name] = await copies();
    const bytes = await readFile(join(folder(), name!));
    await writeFile(join(folder(), name!), bytes.subarray(0, bytes.byteLength - 30));
    // A pack holds its texts in the order of their digests: the cut took the last of them.
    const byDigest = [...texts].sort((a, b) => (md5(a) < md5(b) ? -1 : 1));
    const read = baseReader(dir);
    expect(await read(md5(byDigest[0]!))).toBe(byDigest[0]);
    expect(await read(md5(byDigest[49]!))).toBeUndefined();
    expect(await copies()).toEqual([]);
    await push(texts);
    expect(await baseReader(dir)(md5(byDigest[49]!))).toBe(byDigest[49]);
  });

  it('keeps only what is wanted, in one pack: texts handed over, or kept before in packs and in copies of their own', async () => {
    await push(texts.slice(0, 10));
    await push(texts.slice(10, 20));
    // A folder of an earlier version: one file per text, named by its digest; and one damaged so.
    await writeFile(join(folder(), md5(texts[20]!)), texts[20]!);
    await writeFile(join(folder(), md5(texts[21]!)), texts[21]!.slice(0, 10));
    const wanted = new Map<string, string | undefined>([
      [md5(texts[5]!), undefined],
      [md5(texts[15]!), undefined],
      [md5(texts[20]!), undefined],
      [md5(texts[21]!), undefined],
      [md5(texts[30]!), texts[30]],
    ]);
    const prune = await keepOnly(dir, wanted);
    expect(await copies()).toHaveLength(4);
    await prune();
    expect(await copies()).toHaveLength(1);
    const read = baseReader(dir);
    for (const i of [5, 15, 20, 30]) expect(await read(md5(texts[i]!))).toBe(texts[i]);
    for (const i of [0, 10, 21]) expect(await read(md5(texts[i]!))).toBeUndefined();
  });

  /** A manifest naming the templates `page-I.html` of the indexes given, each with the text of that index. */
  const manifestOf = (indexes: number[]): Manifest => ({
    version: 1,
    pulled_on: new Date(0).toISOString(),
    shop: { id: '1', subdomain: 'northwind', name: 'Northwind' },
    theme: { id: '1', title: 'Spring', production: true, href: 'http://127.0.0.1/v1/themes/1', preview: '' },
    files: Object.fromEntries(
      indexes.map((i) => [
        pathOf('template', `page-${i}.html`),
        { kind: 'template', name: `page-${i}.html`, id: String(i), updated_on: '', md5: md5(texts[i]!) },
      ]),
    ),
  });

  it("keeps, on a pull, the bases another environment's manifest names (the folder's copies are shared)", async () => {
    await push(texts.slice(0, 20));
    const north = manifestOf([0, 1, 2]);
    const copper = manifestOf([10, 11]);
    await writeManifest(dir, north, MANIFEST_FILE);
    await writeManifest(dir, copper, `${ENVIRONMENT_MANIFESTS_DIR}/copper.json`);
    await recordBases(dir, north, new Map());
    expect(await copies()).toHaveLength(1);
    const read = baseReader(dir);
    for (const i of [0, 1, 2, 10, 11]) expect(await read(md5(texts[i]!))).toBe(texts[i]);
    for (const i of [3, 12, 19]) expect(await read(md5(texts[i]!))).toBeUndefined();
  });

  it('folds the packs of many pushes into one once there are more than 16, keeping what a manifest names', async () => {
    // As `watch` does: a push of the one template saved, then the manifest naming its new text.
    const named = [0, 1];
    for (let i = 0; i < 40; i++) {
      await writeManifest(dir, manifestOf([...named, i]));
      await push([texts[i]!]);
      expect((await copies()).length).toBeLessThanOrEqual(17);
    }
    const read = baseReader(dir);
    for (const i of [0, 1, 39]) expect(await read(md5(texts[i]!))).toBe(texts[i]);
    // Folded away at the last fold, long after the manifest stopped naming it.
    expect(await read(md5(texts[5]!))).toBeUndefined();
  });

  it('keeps nothing through a symbolic link in place of its folder', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'storefront-bases-elsewhere-'));
    try {
      await mkdir(join(dir, '.storefront'));
      await symlink(elsewhere, folder());
      await push(texts);
      expect(await readdir(elsewhere)).toEqual([]);
      expect(await baseReader(dir)(md5(texts[0]!))).toBeUndefined();
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});
