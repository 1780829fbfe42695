/**
 * Where theme resources and files live. File names are limited to `[A-Za-z0-9._-]` and `/`, so they go
 * into paths as they are.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Addresses } from '../../core/types.js';
import type { AssetRow, ThemeRow } from '../../store/types.js';

export const themeUrl = (a: Addresses, themeId: string) => `${a.baseUrl}/themes/${themeId}`;
export const templatesUrl = (a: Addresses, themeId: string) => `${themeUrl(a, themeId)}/templates`;
export const templateUrl = (a: Addresses, themeId: string, id: string) => `${templatesUrl(a, themeId)}/${id}`;
export const assetsUrl = (a: Addresses, themeId: string) => `${themeUrl(a, themeId)}/assets`;
export const assetUrl = (a: Addresses, themeId: string, id: string) => `${assetsUrl(a, themeId)}/${id}`;
export const previewUrl = (a: Addresses, themeId: string) => `${themeUrl(a, themeId)}/preview`;
export const shopThemesUrl = (a: Addresses, shopId: string) => `${a.baseUrl}/shops/${shopId}/themes`;

/** Static files of a theme: `{static_url}/themes/{theme_id}/…`. */
const staticThemeUrl = (a: Addresses, themeId: string) => `${a.staticUrl}/themes/${themeId}`;

/**
 * An asset's `file` link. The digest in the path makes the URL immutable: new bytes get a new URL,
 * so the file can be cached for a year.
 */
export function assetFileUrl(a: Addresses, asset: AssetRow): string {
  return `${staticThemeUrl(a, asset.theme_id)}/assets/${asset.digest}/${asset.file_name}`;
}

/**
 * A version of the theme's whole file set, part of the preview's file URLs. Every write moves the theme's
 * `updated_on`, so the version changes with any template or asset and those URLs never serve other content.
 * It is derived from timestamps only the shop's administrators see, so that the URLs are hard to guess.
 */
export function themeVersion(theme: ThemeRow): string {
  return bytesToHex(sha256(new TextEncoder().encode(`${theme.id}\n${theme.created_on}\n${theme.updated_on}`))).slice(
    0,
    20,
  );
}

/** The folder the preview page resolves relative references against (its `<base href>`). */
export function previewFilesUrl(a: Addresses, theme: ThemeRow): string {
  return `${staticThemeUrl(a, theme.id)}/preview/${themeVersion(theme)}/`;
}
