/**
 * A theme folder next to its theme on the server: the base the manifest recorded, what the folder holds now,
 * what the server holds now, and the changes between them. Every command that syncs starts here.
 */
import type { Client, Shop, Theme } from '@storefront-platform/sdk';
import { CliError } from '../errors.js';
import { compare, type FileChange } from './changes.js';
import { EVERY_FILE, type FileFilter } from './file-filter.js';
import { assertFolder, isUnread, type LocalFile, type LocalScan, scanFolder } from './local.js';
import { type Manifest, readManifest, requireManifest, type ThemeTarget } from './manifest.js';
import {
  type OpenedTheme,
  openTheme,
  previewUrl,
  type Refusal,
  type RemoteFile,
  readRemote,
  type ThemeRef,
} from './remote.js';

/** A theme folder opened against its theme on the server, with the changes on each side since the last pull. */
export interface Workspace extends OpenedTheme {
  dir: string;
  /** The folder's manifest, bound to {@link theme}; its files are the base of {@link changes}. */
  manifest: Manifest;
  local: LocalScan;
  remote: Map<string, RemoteFile>;
  /** The theme's files the tool refuses (unsafe names, sizes past the API's limits): left out of everything. */
  refused: Refusal[];
  /**
   * The changes on either side, but none of a path the folder holds as a symbolic link (or behind one) or the
   * theme as a refused file: a file replaced by a link is not deleted here, a file too large not deleted there.
   */
  changes: FileChange[];
  /** The changes left out of {@link changes} because the folder holds their path as a symbolic link or behind one. */
  linked: FileChange[];
}

/** Which theme `theme` is, of which shop. */
export function targetOf(shop: Shop, theme: Theme): ThemeTarget {
  const { id, title, production } = theme.properties;
  return {
    shop: { id: shop.properties.id, subdomain: shop.properties.subdomain, name: shop.properties.name },
    theme: { id, title, production, href: theme.link('self').expand(), preview: previewUrl(theme) },
  };
}

/** The manifest's binding to `theme`, with `files` as the base. */
function bindManifest(shop: Shop, theme: Theme, files: Manifest['files']): Manifest {
  return { version: 1, ...targetOf(shop, theme), pulled_on: new Date().toISOString(), files };
}

function assemble(
  dir: string,
  manifest: Manifest,
  opened: OpenedTheme,
  local: LocalScan,
  filter: FileFilter,
): Workspace {
  const { files: remote, refused } = readRemote(opened.theme);
  const held = new Set(refused.flatMap((refusal) => (refusal.path ? [refusal.path] : [])));
  // A file the filter leaves out is no change on either side: neither brought, sent nor deleted.
  const all = compare(manifest.files, local.files, remote).filter(
    (change) => !held.has(change.path) && filter(change.path),
  );
  const linked = all.filter((change) => isUnread(local, change.path));
  const changes = all.filter((change) => !linked.includes(change));
  return { dir, manifest, ...opened, local, remote, refused, changes, linked };
}

/** What a pulled folder holds: its files and its manifest. */
export interface PulledFolder {
  local: LocalScan;
  manifest: Manifest;
}

/** A folder's files as read once, with their bytes: for several pushes of the same folder (environments). */
export interface FolderRead {
  local: LocalScan;
  /** The bytes of each file of {@link LocalScan.files}, by path. */
  bytes: ReadonlyMap<string, Uint8Array>;
}

/** Reads the theme files of `dir`, keeping their bytes (see {@link FolderRead}). */
export async function readFolder(dir: string): Promise<FolderRead> {
  const bytes = new Map<string, Uint8Array>();
  const local = await scanFolder(dir, (scanned, read) => bytes.set(scanned.path, read));
  return { local, bytes };
}

/**
 * Reads a folder pulled before (a usage error for one that was not); `file`: where its manifest lies. `changed`,
 * when given, receives the bytes of each file that differs from the manifest's base: what a push sends, read once.
 * `read`: the folder's files as read already, not read again. `start`: the manifest of a first push, which has none
 * at `file` yet (see push.ts).
 */
export async function readPulledFolder(
  dir: string,
  file?: string,
  changed?: Map<string, Uint8Array>,
  read?: FolderRead,
  start?: Manifest,
): Promise<PulledFolder> {
  // A folder that is missing, or a file, is said so before its manifest is looked for.
  await assertFolder(dir);
  const manifest = start ?? (await requireManifest(dir, file));
  const keep = (scanned: LocalFile, bytes: Uint8Array) => {
    if (changed && manifest.files[scanned.path]?.md5 !== scanned.md5) changed.set(scanned.path, bytes);
  };
  if (!read) return { local: await scanFolder(dir, keep), manifest };
  for (const scanned of read.local.files.values()) keep(scanned, read.bytes.get(scanned.path)!);
  return { local: read.local, manifest };
}

/**
 * A folder pulled before, with the theme it was pulled from (push, status, watch); `folder` when the caller has
 * read it already; `filter` leaves files out of its changes (see file-filter.ts); `signal` aborts the reads.
 */
export async function openWorkspace(
  client: Client,
  dir: string,
  folder?: PulledFolder,
  filter: FileFilter = EVERY_FILE,
  signal?: AbortSignal,
): Promise<Workspace> {
  const { local, manifest } = folder ?? (await readPulledFolder(dir));
  const ref = { shop: manifest.shop.id, development: !manifest.theme.production };
  const opened = await openTheme(client, ref, signal);
  const href = opened.theme.link('self').expand();
  if (href !== manifest.theme.href) {
    throw new CliError(`${dir} was pulled from ${manifest.theme.href}, not from ${href}: pull it again`);
  }
  return assemble(dir, { ...manifest, ...targetOf(opened.shop, opened.theme) }, opened, local, filter);
}

/**
 * A folder about to be pulled from the theme `ref` names (by default the one it holds, else the production
 * theme of the user's only shop). A folder moving to another theme of the same shop keeps its base, so that its
 * own changes stay changes: a development theme starts as a copy of the production theme.
 */
export async function openPullWorkspace(
  client: Client,
  dir: string,
  ref: ThemeRef,
  filter: FileFilter = EVERY_FILE,
  file?: string,
): Promise<Workspace> {
  const previous = await readManifest(dir, file);
  const opened = await openTheme(client, {
    ...ref,
    shop: ref.shop ?? previous?.shop.id,
    development: ref.development ?? (previous ? !previous.theme.production : false),
  });
  const manifest = bindManifest(opened.shop, opened.theme, {});
  const sameShop =
    previous?.shop.id === manifest.shop.id &&
    new URL(previous.theme.href).origin === new URL(manifest.theme.href).origin;
  if (sameShop) manifest.files = previous.files;
  return assemble(dir, manifest, opened, await scanFolder(dir), filter);
}
