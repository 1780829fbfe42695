/**
 * How a theme lies in a folder: each template as a file under its file name (`layout.html`,
 * `partials/cart.html`), each asset under `assets/` (`assets/images/logo.png`). The two never collide:
 * templates end in .html, .css or .js, which no asset type does, so a file's extension says what it is.
 */

import { API_LIMITS, ASSET_EXTENSIONS } from '@storefront-platform/sdk';

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
/** Where the manifests of the folder's other environments lie, one `NAME.json` each (see cli/environments.ts). */
export const ENVIRONMENT_MANIFESTS_DIR = '.storefront/environments';
/** What `publish` records while it writes, in the theme folder: present only while a publish is unfinished. */
export const PUBLISH_JOURNAL_FILE = '.storefront-publish.jsonl';

const TEMPLATE_EXTENSIONS = new Set(['html', 'css', 'js']);
/** The asset types the API accepts (wire contract, "Themes, templates, assets"). */
const ASSET_TYPES: ReadonlySet<string> = new Set(ASSET_EXTENSIONS);
/**
 * The API's file name rule: one or two segments of these characters, none of dots only, at most
 * {@link MAX_FILE_NAME_LENGTH} characters. The narrow alphabet keeps out every path trick (`..`, absolute paths,
 * backslashes, NUL, `%2e%2e`), so that a name that passes stays inside the folder once joined to it.
 */
const SEGMENT = /^[A-Za-z0-9._-]+$/;
/** Longest file name the API accepts. */
export const MAX_FILE_NAME_LENGTH = API_LIMITS.fileNameLength;
/**
 * Names Windows gives to devices whatever their extension (`con.html` writes to the console): the API allows
 * them, so they are refused only where they are devices.
 */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;

function extensionOf(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
}

function isFileName(name: string, platform: NodeJS.Platform): boolean {
  const segments = name.split('/');
  return (
    name.length <= MAX_FILE_NAME_LENGTH &&
    segments.length <= 2 &&
    segments.every((s) => SEGMENT.test(s) && !/^\.+$/.test(s) && !(platform === 'win32' && WINDOWS_DEVICE.test(s)))
  );
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
export function fileAt(path: string, platform = process.platform): ThemeFileId | 'invalid' | undefined {
  const extension = extensionOf(path);
  if (TEMPLATE_EXTENSIONS.has(extension)) {
    return isFileName(path, platform) ? { kind: 'template', name: path, path } : 'invalid';
  }
  if (!path.startsWith(`${ASSETS_DIR}/`) || !ASSET_TYPES.has(extension)) return undefined;
  const name = path.slice(ASSETS_DIR.length + 1);
  return isFileName(name, platform) ? { kind: 'asset', name, path } : 'invalid';
}

/** Whether a folder entry is skipped whole: hidden files and folders (`.git`, the manifest), `node_modules`. */
export function isSkipped(segment: string): boolean {
  return segment.startsWith('.') || segment === 'node_modules';
}

/**
 * Where a file the server names lies in the folder, by the rule of the folder's own files: the file the folder
 * would see at that path, of that kind, and not in a skipped entry (which the folder's scan would never see, so
 * that the next push would delete it). Otherwise why not, in words fit to follow "unsafe name".
 */
export function placeOf(kind: FileKind, name: unknown, platform = process.platform): ThemeFileId | string {
  if (typeof name !== 'string') return 'not a string';
  // Checked before the path is built: `pathOf` would make `../x.png` an asset path `assets/../x.png`.
  if (!isFileName(name, platform)) return 'not a file name the API allows';
  const path = pathOf(kind, name);
  const file = fileAt(path, platform);
  if (typeof file !== 'object' || file.kind !== kind) {
    return `not the name of ${kind === 'template' ? 'a template' : 'an asset'} (its extension)`;
  }
  if (path.split('/').some(isSkipped)) return 'a hidden name, which the folder would not see';
  return file;
}
