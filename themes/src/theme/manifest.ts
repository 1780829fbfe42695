/**
 * `.storefront-theme.json`: which theme a folder holds, and each file as it was when the folder and the server
 * last agreed on it (its id, `updated_on` and MD5). A file whose digest moved since is a change on that side.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HalResource } from '@storefront-platform/sdk';
import { UsageError } from '../errors.js';
import { type FileKind, MANIFEST_FILE } from './layout.js';
import { writeLocal } from './local.js';

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

/** The folder's manifest, `undefined` when it has none (never pulled). */
export async function readManifest(dir: string): Promise<Manifest | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const manifest = JSON.parse(text) as Manifest;
    if (manifest.version === 1 && manifest.files && manifest.theme && manifest.shop) return manifest;
  } catch {}
  throw new UsageError(`${join(dir, MANIFEST_FILE)} is damaged: pull the theme into a new folder`);
}

/** The manifest of a folder that must have been pulled before. */
export async function requireManifest(dir: string): Promise<Manifest> {
  const manifest = await readManifest(dir);
  if (!manifest) {
    throw new UsageError(`${dir} holds no pulled theme (no ${MANIFEST_FILE}): run storefront-themes pull first`);
  }
  return manifest;
}

export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const files = Object.fromEntries(Object.entries(manifest.files).sort(([a], [b]) => (a < b ? -1 : 1)));
  await writeLocal(dir, MANIFEST_FILE, `${JSON.stringify({ ...manifest, files }, null, 2)}\n`);
}
