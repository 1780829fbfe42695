/**
 * How a theme lies in a folder: each template as a file under its file name (`layout.html`,
 * `partials/cart.html`), each asset under `assets/` (`assets/images/logo.png`). The two never collide:
 * templates end in .html, .css or .js, which no asset type does, so a file's extension says what it is.
 */

/** A template or an asset. */
export type FileKind = 'template' | 'asset';

/** One file of a theme: its API file name and where it lies in the folder (`/`-separated). */
export interface ThemeFileId {
  kind: FileKind;
  /** The `file_name` on the API. */
  name: string;
  /** The path relative to the theme folder, `/`-separated: the key of a file everywhere in this package. */
  path: string;
}

/** The folder of the assets. */
const ASSETS_DIR = 'assets';
/** What `pull` records, in the theme folder. */
export const MANIFEST_FILE = '.storefront-theme.json';
/** What `publish` records while it writes, in the theme folder: present only while a publish is unfinished. */
export const PUBLISH_JOURNAL_FILE = '.storefront-publish.jsonl';

const TEMPLATE_EXTENSIONS = new Set(['html', 'css', 'js']);
/** The asset types the API accepts (wire contract, "Themes, templates, assets"). */
const ASSET_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'ico', 'woff', 'woff2', 'ttf', 'otf']);
/** The API's file name rule: one or two segments of these characters, none of dots only. */
const SEGMENT = /^[A-Za-z0-9._-]+$/;

function extensionOf(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
}

function isFileName(name: string): boolean {
  const segments = name.split('/');
  return segments.length <= 2 && segments.every((s) => SEGMENT.test(s) && !/^\.+$/.test(s));
}

/** Where a file of the theme lies in the folder. */
export function pathOf(kind: FileKind, name: string): string {
  return kind === 'template' ? name : `${ASSETS_DIR}/${name}`;
}

/**
 * What a file of the folder is: a template, an asset, `invalid` when its extension makes it one but its name
 * cannot be a file name on the API (a space, a third folder level), or `undefined` when it is no theme file at
 * all (a README, an editor's swap file), which is then left alone.
 */
export function fileAt(path: string): ThemeFileId | 'invalid' | undefined {
  const extension = extensionOf(path);
  if (TEMPLATE_EXTENSIONS.has(extension)) return isFileName(path) ? { kind: 'template', name: path, path } : 'invalid';
  if (!path.startsWith(`${ASSETS_DIR}/`) || !ASSET_EXTENSIONS.has(extension)) return undefined;
  const name = path.slice(ASSETS_DIR.length + 1);
  return isFileName(name) ? { kind: 'asset', name, path } : 'invalid';
}

/** Whether a folder entry is skipped whole: hidden files and folders (`.git`, the manifest), `node_modules`. */
export function isSkipped(segment: string): boolean {
  return segment.startsWith('.') || segment === 'node_modules';
}
