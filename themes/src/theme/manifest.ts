/**
 * `.storefront-theme.json`: which theme a folder holds, and each file as it was when the folder and the server
 * last agreed on it (its id, `updated_on` and MD5). A file whose digest moved since is a change on that side.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { HalResource } from '@storefront-platform/sdk';
import { UsageError } from '../errors.js';
import { lstatInside, readInside, writeInside } from './confined.js';
import { ENVIRONMENT_MANIFESTS_DIR, type FileKind, MANIFEST_FILE, placeOf } from './layout.js';

/** A file as both sides last had it. */
export interface BaseEntry {
  kind: FileKind;
  /** The API's `file_name`. */
  name: string;
  id: string;
  updated_on: string;
  md5: string;
  /**
   * The file's links as the server gave them (its `self`, update and delete): a push of edited templates
   * follows them from here, without reading the theme first. Absent in folders pulled by earlier versions.
   */
  links?: HalResource['_links'];
  /**
   * The strong `ETag` of the file's representation at `updated_on`, when a response gave it (a push's; a pull reads
   * templates embedded in the theme, without one): the next push sends it as `If-Match`.
   */
  etag?: string;
}

/** Which theme of which shop: what the commands name and print. */
export interface ThemeTarget {
  shop: { id: string; subdomain: string; name: string };
  /** `href` is the theme's `self`: it tells apart themes of different servers too; `preview` its preview page. */
  theme: { id: string; title: string; production: boolean; href: string; preview: string };
}

/** The contents of the manifest. */
export interface Manifest extends ThemeTarget {
  version: 1;
  /** When the folder was last pulled (ISO 8601). */
  pulled_on: string;
  /** By path in the folder. */
  files: Record<string, BaseEntry>;
}

/**
 * The folder's manifest, `undefined` when it has none (never pulled). `file` is where it lies in the folder: the
 * manifest of an environment other than the folder's default has its own (see cli/environments.ts).
 */
export async function readManifest(dir: string, file = MANIFEST_FILE): Promise<Manifest | undefined> {
  // A manifest may come with a folder from someone else (a git clone): read it like a server's answer.
  const bytes = await readInside(dir, file);
  if (!bytes) return undefined;
  try {
    const manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
    if (manifest.version === 1 && manifest.files && manifest.theme && manifest.shop && safeFiles(manifest.files)) {
      return manifest;
    }
  } catch {}
  throw new UsageError(`${join(dir, file)} is damaged: pull the theme into a new folder`);
}

/**
 * Every manifest of the folder that reads: its default's and each environment's. What one of them names is kept for
 * all (the base copies of `pull --merge` live in one folder that every environment shares).
 */
export async function readManifests(dir: string): Promise<Manifest[]> {
  const own = (await lstatInside(dir, ENVIRONMENT_MANIFESTS_DIR).catch(() => undefined))?.isDirectory();
  const names = own ? await readdir(join(dir, ENVIRONMENT_MANIFESTS_DIR)).catch(() => []) : [];
  const files = [
    MANIFEST_FILE,
    ...names.filter((name) => name.endsWith('.json')).map((name) => `${ENVIRONMENT_MANIFESTS_DIR}/${name}`),
  ];
  const manifests = await Promise.all(files.map((file) => readManifest(dir, file).catch(() => undefined)));
  return manifests.filter((manifest) => manifest !== undefined);
}

/** Whether every entry lies where its kind and name say, by the rule of the folder's own files. */
function safeFiles(files: Manifest['files']): boolean {
  return Object.entries(files).every(([path, entry]) => {
    const place = placeOf(entry.kind, entry.name);
    return typeof place === 'object' && place.path === path;
  });
}

/** The manifest of a folder that must have been pulled before. */
export async function requireManifest(dir: string, file = MANIFEST_FILE): Promise<Manifest> {
  const manifest = await readManifest(dir, file);
  if (!manifest) {
    throw new UsageError(`${dir} holds no pulled theme (no ${file}): run storefront-themes pull first`);
  }
  return manifest;
}

export async function writeManifest(dir: string, manifest: Manifest, file = MANIFEST_FILE): Promise<void> {
  const files = Object.fromEntries(Object.entries(manifest.files).sort(([a], [b]) => (a < b ? -1 : 1)));
  const text = `${JSON.stringify({ ...manifest, files }, null, 2)}\n`;
  await writeInside(dir, file, text, { replace: true, sync: true });
}
