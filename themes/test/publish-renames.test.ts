/**
 * Renames and deletions in a publish's three-way merge, as `git merge` takes them: the same rename on both sides,
 * or a deletion on both, is clean; a file renamed to different names, or renamed on one side and deleted on the
 * other, is a conflict (no side's decision is lost silently); `--ours` and `--theirs` settle them.
 */
import type { Template } from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { md5 } from '../src/theme/digest.js';
import type { BaseFile } from '../src/theme/publish-base.js';
import { mergeThemes } from '../src/theme/publish-merge.js';
import type { RemoteFile } from '../src/theme/remote.js';

/** A theme's templates by path, each holding `<p>{text}</p>`: what the merge reads of them. */
function themeOf(files: Record<string, string>): Map<string, RemoteFile> {
  return new Map(
    Object.entries(files).map(([path, text]) => {
      const body = `<p>${text}</p>\n`;
      const entity = { properties: { body } } as Template;
      const file: RemoteFile = { kind: 'template', name: path, path, id: path, updated_on: '', md5: md5(body), entity };
      return [path, file];
    }),
  );
}

const BASE = { 'products.html': 'products', 'notfound.html': 'not found', 'hero.html': 'hero', 'index.html': 'home' };

/** Merges `development` and `production` against {@link BASE}, every template's base text kept. */
function merge(development: Record<string, string>, production: Record<string, string>, favour?: 'ours' | 'theirs') {
  const base = new Map<string, BaseFile>([...themeOf(BASE)].map(([path, f]) => [path, { kind: f.kind, md5: f.md5 }]));
  const texts = new Map(Object.values(BASE).map((text) => [md5(`<p>${text}</p>\n`), `<p>${text}</p>\n`]));
  return mergeThemes({
    base,
    development: themeOf(development),
    production: themeOf(production),
    text: async (digest) => texts.get(digest),
    ...(favour ? { favour } : {}),
  });
}

const { 'products.html': _, ...withoutProducts } = BASE;
const { 'notfound.html': __, ...withoutNotFound } = BASE;
const lines = (changes: { action: string; path: string }[]) => changes.map((c) => `${c.action} ${c.path}`);

describe('renames and deletions in a publish', () => {
  it('the same rename on both sides is clean, and so is the same deletion', async () => {
    const renamed = { ...withoutProducts, 'catalog.html': 'products' };
    expect(await merge(renamed, renamed)).toEqual({ changes: [], conflicts: [], resolved: [] });
    expect(await merge(withoutNotFound, withoutNotFound)).toEqual({ changes: [], conflicts: [], resolved: [] });
  });

  it('a rename or a deletion on one side only is taken', async () => {
    const renamed = { ...withoutProducts, 'catalog.html': 'products' };
    expect(lines((await merge(renamed, BASE)).changes)).toEqual(['created catalog.html', 'deleted products.html']);
    expect(await merge(BASE, renamed)).toEqual({ changes: [], conflicts: [], resolved: [] });
    expect(lines((await merge(withoutNotFound, BASE)).changes)).toEqual(['deleted notfound.html']);
  });

  it('a rename to different names on the two sides is a conflict, nothing of it published', async () => {
    const merged = await merge(
      { ...withoutProducts, 'catalog.html': 'products' },
      { ...withoutProducts, 'shop.html': 'products' },
    );
    expect(merged.changes).toEqual([]);
    expect(merged.conflicts).toEqual([
      {
        path: 'products.html',
        kind: 'template',
        development: 'renamed',
        production: 'renamed',
        reason: 'renamed to catalog.html in the development theme, to shop.html in production',
      },
    ]);
  });

  it('a rename on one side and a deletion on the other is a conflict, either way round', async () => {
    const merged = await merge(
      { ...withoutNotFound, 'missing.html': 'not found' },
      { ...withoutNotFound, 'index.html': 'home, edited by the merchant' },
    );
    expect(lines(merged.changes)).toEqual([]);
    expect(merged.conflicts).toMatchObject([
      {
        path: 'notfound.html',
        development: 'renamed',
        production: 'deleted',
        reason: 'renamed to missing.html in the development theme, deleted in production',
      },
    ]);
    const { 'hero.html': _hero, ...withoutHero } = BASE;
    const reverse = await merge(withoutHero, { ...withoutHero, 'banner.html': 'hero' });
    expect(reverse.changes).toEqual([]);
    expect(reverse.conflicts).toMatchObject([
      {
        path: 'hero.html',
        development: 'deleted',
        production: 'renamed',
        reason: 'deleted in the development theme, renamed to banner.html in production',
      },
    ]);
  });

  it('the reviewed case: three files, three conflicts, and nothing published', async () => {
    const { 'hero.html': _hero, 'products.html': _p, 'notfound.html': _n, ...rest } = BASE;
    const merged = await merge(
      { ...rest, 'catalog.html': 'products', 'missing.html': 'not found' },
      { ...rest, 'shop.html': 'products', 'banner.html': 'hero' },
    );
    expect(merged.changes).toEqual([]);
    expect(merged.conflicts.map((c) => `${c.path} ${c.development}/${c.production}`)).toEqual([
      'hero.html deleted/renamed',
      'notfound.html renamed/deleted',
      'products.html renamed/renamed',
    ]);
  });

  it('--ours makes production take the development theme’s side of each, --theirs keeps production’s', async () => {
    const { 'hero.html': _hero, 'products.html': _p, 'notfound.html': _n, ...rest } = BASE;
    const development = { ...rest, 'catalog.html': 'products', 'missing.html': 'not found' };
    const production = { ...rest, 'shop.html': 'products', 'banner.html': 'hero' };
    const ours = await merge(development, production, 'ours');
    expect(ours.conflicts).toEqual([]);
    expect(ours.resolved).toHaveLength(3);
    expect(lines(ours.changes)).toEqual([
      'deleted banner.html',
      'created catalog.html',
      'created missing.html',
      'deleted shop.html',
    ]);
    expect(ours.changes.every((c) => c.how === 'ours')).toBe(true);
    const theirs = await merge(development, production, 'theirs');
    expect(theirs).toMatchObject({ changes: [], conflicts: [] });
    expect(theirs.resolved).toHaveLength(3);
  });
});
