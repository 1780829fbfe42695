/**
 * The theme on the server: found from the API root by following links (root → shop → production theme →
 * development theme), and seen as files keyed like the folder's.
 */
import type { Client, Root, Shop, Template, Theme, ThemeAsset } from '@storefront-platform/sdk';
import { CliError, UsageError } from '../errors.js';
import { quoted } from '../printable.js';
import { md5 } from './digest.js';
import { type FileKind, pathOf, placeOf, type ThemeFileId } from './layout.js';
import { MAX_ASSET_BYTES, MAX_TEMPLATE_BYTES } from './limits.js';
import type { Manifest } from './manifest.js';

/** A template or asset of the theme, with the entity whose links write it. */
export type RemoteFile = ThemeFileId & { id: string; updated_on: string; md5: string } & (
    | { kind: 'template'; entity: Template }
    | { kind: 'asset'; entity: ThemeAsset }
  );

/** Which theme. */
export interface ThemeRef {
  /** Subdomain or id of one of the user's shops; required when the user has several. */
  shop?: string;
  /** The development theme rather than the production theme. */
  development?: boolean;
  /** Create the development theme when the shop has none (else that is an error). */
  create?: boolean;
}

/** A shop and one of its themes. */
export interface OpenedTheme {
  shop: Shop;
  theme: Theme;
  /** The shop's production theme, read on the way (`theme` itself unless the development theme was asked for). */
  production: Theme;
  /** Whether this call created the development theme. */
  created: boolean;
}

/**
 * The shop named `wanted` (subdomain or id) among those the user administers, in detail; the only one if unnamed.
 * `signal` aborts the read.
 */
export async function findShop(root: Root, wanted: string | undefined, signal?: AbortSignal): Promise<Shop> {
  const shops = root.embedded('shops');
  const names = shops.map((s) => s.properties.subdomain).join(', ') || 'none';
  const match =
    wanted === undefined
      ? shops.length === 1
        ? shops[0]
        : undefined
      : shops.find((s) => s.properties.subdomain === wanted || s.properties.id === wanted);
  if (!match) {
    if (wanted === undefined) {
      if (shops.length === 0) throw new CliError(`${root.properties.user_name} administers no shop`);
      throw new UsageError(`${root.properties.user_name} administers several shops: choose one with --shop (${names})`);
    }
    throw new UsageError(`no shop "${wanted}" among those ${root.properties.user_name} administers (${names})`);
  }
  // The root embeds summaries; the detail carries the link to the theme.
  return match.follow('self', undefined, { signal });
}

/** The production or development theme of a shop; `signal` aborts the reads (not the creation of one). */
export async function openTheme(client: Client, ref: ThemeRef, signal?: AbortSignal): Promise<OpenedTheme> {
  const shop = await findShop(await client.root({ signal }), ref.shop, signal);
  const production = await shop.follow('svc:theme', undefined, { signal });
  if (!ref.development) return { shop, theme: production, production, created: false };
  // The production theme links `svc:dev_theme` while the shop has one, `svc:create_dev_theme` while it has not.
  if (production.can('svc:dev_theme')) {
    return { shop, theme: await production.follow('svc:dev_theme', undefined, { signal }), production, created: false };
  }
  if (!ref.create) {
    throw new CliError(`${shop.properties.name} has no development theme: create it with storefront-themes dev`);
  }
  return { shop, theme: await production.follow('svc:create_dev_theme'), production, created: true };
}

/** A written template as a {@link RemoteFile}. */
export function remoteTemplate(entity: Template): RemoteFile {
  const { id, file_name: name, updated_on, body } = entity.properties;
  return { kind: 'template', name, path: pathOf('template', name), id, updated_on, md5: md5(body), entity };
}

/** A written asset as a {@link RemoteFile}. */
export function remoteAsset(entity: ThemeAsset): RemoteFile {
  const { id, file_name: name, updated_on, digest } = entity.properties;
  return { kind: 'asset', name, path: pathOf('asset', name), id, updated_on, md5: digest, entity };
}

/**
 * A file of the theme that the tool leaves out, reported as `skipped`: its name is not one the folder's own files
 * could have (`../x.html`, a third level, a hidden folder, a name taken but for case), or it is larger than the
 * API allows.
 */
export interface Refusal {
  kind: FileKind;
  /** The name as the server gave it, {@link quoted}: no control character nor bidirectional mark reaches a terminal. */
  name: string;
  /**
   * Where it would lie, when its name is safe but the file is refused all the same (its size, a case twin): that
   * path is left alone on both sides.
   */
  path?: string;
  reason: string;
}

/** A theme's files, and those it holds that the tool refuses. */
export interface RemoteFiles {
  /** By path. */
  files: Map<string, RemoteFile>;
  refused: Refusal[];
}

const encoder = new TextEncoder();

/** Why a file is refused (pulled, pushed) when `twin` holds its name but for case. */
export const twinReason = (twin: string) => `unsafe name: the same as ${twin} but for case`;

/** Why a file's size is refused, if it is. */
function sizeProblem(kind: FileKind, entity: Template | ThemeAsset): string | undefined {
  if (kind === 'template') {
    const { body } = entity.properties as Template['properties'];
    if (typeof body !== 'string') return 'no body';
    // UTF-8 takes at most 3 bytes per UTF-16 unit, so short bodies skip the encoding.
    const bytes = body.length * 3 > MAX_TEMPLATE_BYTES ? encoder.encode(body).byteLength : 0;
    return bytes > MAX_TEMPLATE_BYTES ? `too large: ${bytes} bytes, the API allows ${MAX_TEMPLATE_BYTES}` : undefined;
  }
  const { file_size: size, digest } = entity.properties as ThemeAsset['properties'];
  if (typeof digest !== 'string') return 'no digest';
  if (!(typeof size === 'number' && size <= MAX_ASSET_BYTES)) {
    return `too large: ${size} bytes, the API allows ${MAX_ASSET_BYTES}`;
  }
  return undefined;
}

/**
 * Every file of a theme by path, its templates (bodies embedded) and assets (digests embedded), each name checked
 * by the rule of the folder's own files before it becomes a path: a server's name never leads outside the folder.
 */
export function readRemote(theme: Theme): RemoteFiles {
  const files = new Map<string, RemoteFile>();
  const refused: Refusal[] = [];
  /** Paths by their lower case: one file on a disk that ignores case (macOS, Windows). */
  const cases = new Map<string, string>();
  const entities = [
    ...theme.embedded('templates').map((entity) => ({ kind: 'template' as const, entity })),
    ...theme.embedded('assets').map((entity) => ({ kind: 'asset' as const, entity })),
  ];
  for (const { kind, entity } of entities) {
    const name: unknown = entity.properties.file_name;
    const place = placeOf(kind, name);
    const refuse = (reason: string, path?: string) =>
      refused.push({ kind, name: quoted(name), reason, ...(path ? { path } : {}) });
    if (typeof place === 'string') {
      refuse(`unsafe name: ${place}`);
      continue;
    }
    const taken = cases.get(place.path.toLowerCase());
    if (taken !== undefined) {
      // Held, not absent: a twin the manifest tracks must not read as deleted on the server (and removed here).
      refuse(twinReason(taken), place.path);
      continue;
    }
    cases.set(place.path.toLowerCase(), place.path);
    const problem = sizeProblem(kind, entity);
    if (problem) refuse(problem, place.path);
    else
      files.set(
        place.path,
        kind === 'template' ? remoteTemplate(entity as Template) : remoteAsset(entity as ThemeAsset),
      );
  }
  return { files, refused };
}

/**
 * Every file of a theme as the server names it, keyed by {@link pathOf} of its raw `file_name`, without the
 * folder's name rule: for a copy from one theme to another (`publish`), where no name becomes a path on disk and
 * a hidden name or a case twin is a file like any other. Only a file the server describes without a string name
 * (or a template without a body, an asset without a digest) is left out, as nothing can be copied of it.
 */
export function themeFiles(theme: Theme): Map<string, RemoteFile> {
  const files = new Map<string, RemoteFile>();
  for (const entity of theme.embedded('templates')) {
    const { file_name: name, body } = entity.properties;
    if (typeof name === 'string' && typeof body === 'string')
      files.set(pathOf('template', name), remoteTemplate(entity));
  }
  for (const entity of theme.embedded('assets')) {
    const { file_name: name, digest } = entity.properties;
    if (typeof name === 'string' && typeof digest === 'string') files.set(pathOf('asset', name), remoteAsset(entity));
  }
  return files;
}

/**
 * The files of the manifest's base as the server had them, without a request: each entity restored from the
 * links the manifest kept (properties but the body or bytes). Entries without links (older folders) are left out.
 */
export function restoredFiles(client: Client, manifest: Manifest): Map<string, RemoteFile> {
  const files = new Map<string, RemoteFile>();
  for (const [path, { kind, name, id, updated_on, md5, links }] of Object.entries(manifest.files)) {
    if (!links) continue;
    const document = { _class: [`theme${kind === 'template' ? 'Template' : 'Asset'}`], id, updated_on, _links: links };
    const [at, common] = [manifest.theme.href, { name, path, id, updated_on, md5 }];
    files.set(
      path,
      kind === 'template'
        ? { ...common, kind, entity: client.restore<Template>(document, at) }
        : { ...common, kind, entity: client.restore<ThemeAsset>(document, at) },
    );
  }
  return files;
}

/**
 * The body of a remote template, or the bytes of a remote asset (checked against its digest); `signal` aborts the
 * download (and the client's retries of it).
 */
export async function contentOf(file: RemoteFile, signal?: AbortSignal): Promise<string | Uint8Array> {
  if (file.kind === 'template') return file.entity.properties.body;
  // An asset's bytes are at most the API's limit of one: a larger answer is refused as soon as it passes it.
  const response = await file.entity.follow('file', undefined, { signal, maxResponseSize: MAX_ASSET_BYTES });
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (md5(bytes) !== file.md5)
    throw new CliError(`${file.path}: the bytes downloaded do not match the digest the API gives`);
  return bytes;
}

/** The preview page of a theme: `text/html`, no token needed, fit to open in a browser. */
export function previewUrl(theme: Theme): string {
  return theme.link('svc:theme_preview').expand();
}
