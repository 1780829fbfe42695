/**
 * The base of a publish: the state the development theme and production last agreed on, which `publish` merges
 * against (production's changes since it, the development theme's changes since it). Recorded by `dev` when it
 * creates the development theme (then a copy of production), and moved by every publish that completes.
 *
 * It is kept in the theme folder, beside the manifest: `.storefront/publish-base.json` names each file's MD5 by
 * path (raw API names, as publish copies them), and the text of each template is kept under
 * `.storefront/published/` (in one pack, see base-copies.ts), so that a template changed on both sides can be
 * merged line by line. Committed with the folder (as the manifest is), it goes with the theme to a colleague's
 * machine. Why not the development theme's `settings` on the server: they are the theme's own (the shop renders
 * them, a settings editor replaces them whole), capped at 64 KiB that a theme's own settings share, and could not
 * hold the texts a merge needs.
 */

import type { Theme } from '@storefront-platform/sdk';
import { baseReader, keepOnly } from './base-copies.js';
import { readInside, writeInside } from './confined.js';
import type { FileKind } from './layout.js';
import type { RemoteFile } from './remote.js';

/** Where the base is recorded, in the theme folder. */
export const PUBLISH_BASE_FILE = '.storefront/publish-base.json';
/** The folder of the base's template texts, by MD5. */
const TEXTS = '.storefront/published';

/** A file of the base. */
export interface BaseFile {
  kind: FileKind;
  md5: string;
}

/** The contents of {@link PUBLISH_BASE_FILE}. */
export interface PublishBase {
  version: 1;
  /** The `self` of the development theme it is the base of: another development theme has no base here. */
  development: string;
  /** The `self` of the production theme. */
  production: string;
  /** When it was recorded (ISO 8601). */
  recorded_on: string;
  /** By path, as `pathOf` names a theme's files. */
  files: Record<string, BaseFile>;
}

const href = (theme: Theme) => theme.link('self').expand();

/**
 * The base recorded in `dir` for these two themes, `undefined` when there is none (a folder from before, one that
 * did not create this development theme, or a damaged file).
 */
export async function readPublishBase(
  dir: string,
  development: Theme,
  production: Theme,
): Promise<Map<string, BaseFile> | undefined> {
  const bytes = await readInside(dir, PUBLISH_BASE_FILE).catch(() => undefined);
  if (!bytes) return undefined;
  try {
    const base = JSON.parse(bytes.toString('utf8')) as PublishBase;
    if (base.version !== 1 || base.development !== href(development) || base.production !== href(production)) {
      return undefined;
    }
    const files = new Map<string, BaseFile>();
    for (const [path, file] of Object.entries(base.files)) {
      if ((file.kind === 'template' || file.kind === 'asset') && /^[0-9a-f]{32}$/.test(file.md5)) {
        files.set(path, { kind: file.kind, md5: file.md5 });
      }
    }
    return files;
  } catch {
    return undefined;
  }
}

/** A reader of the texts of the base's templates: the one whose MD5 is `md5`, if kept. */
export function baseTexts(dir: string): (md5: string) => Promise<string | undefined> {
  return baseReader(dir, TEXTS);
}

/**
 * Records `files` as the base of the two themes, keeping the text of each template whose body `texts` gives (by
 * MD5), and removing the texts no file of the base names any more.
 */
export async function writePublishBase(
  dir: string,
  themes: { development: Theme; production: Theme },
  files: ReadonlyMap<string, BaseFile>,
  texts: ReadonlyMap<string, string>,
): Promise<void> {
  const wanted = new Map<string, string | undefined>();
  for (const file of files.values()) if (file.kind === 'template') wanted.set(file.md5, texts.get(file.md5));
  const prune = await keepOnly(dir, wanted, TEXTS);
  const base: PublishBase = {
    version: 1,
    development: href(themes.development),
    production: href(themes.production),
    recorded_on: new Date().toISOString(),
    files: Object.fromEntries([...files].sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  await writeInside(dir, PUBLISH_BASE_FILE, `${JSON.stringify(base, null, 1)}\n`, { replace: true, sync: true });
  await prune();
}

/** A theme's files as a base, and its templates' texts by MD5. */
export function baseOfFiles(files: ReadonlyMap<string, RemoteFile>): {
  files: Map<string, BaseFile>;
  texts: Map<string, string>;
} {
  const base = new Map<string, BaseFile>();
  const texts = new Map<string, string>();
  for (const [path, file] of files) {
    base.set(path, { kind: file.kind, md5: file.md5 });
    if (file.kind === 'template') texts.set(file.md5, file.entity.properties.body);
  }
  return { files: base, texts };
}
