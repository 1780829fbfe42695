/**
 * Where theme resources and files live. File names are limited to `[A-Za-z0-9._-]` and `/`, so they go
 * into paths as they are, but for the `/` of an asset's `file` link.
 */
import type { Addresses } from '../../core/types.js';
import type { AssetRow, ThemeRow } from '../../store/types.js';

/** A theme's self, also the target of `svc:update_theme`. */
export const themeUrl = (a: Addresses, themeId: string) => `${a.baseUrl}/themes/${themeId}`;
/** Target of `svc:create_template`. */
export const templatesUrl = (a: Addresses, themeId: string) => `${themeUrl(a, themeId)}/templates`;
/** A template's self, also the target of `svc:update_template` and `svc:delete_template`. */
export const templateUrl = (a: Addresses, themeId: string, id: string) => `${templatesUrl(a, themeId)}/${id}`;
/** Target of `svc:create_theme_asset`. */
export const assetsUrl = (a: Addresses, themeId: string) => `${themeUrl(a, themeId)}/assets`;
/** Target of `svc:delete_theme_asset`. */
export const assetUrl = (a: Addresses, themeId: string, id: string) => `${assetsUrl(a, themeId)}/${id}`;
/** Target of `svc:create_dev_theme`. */
export const shopThemesUrl = (a: Addresses, shopId: string) => `${a.baseUrl}/shops/${shopId}/themes`;

/** Static files of a theme: `{static_url}/themes/{theme_id}/…`. */
const staticThemeUrl = (a: Addresses, themeId: string) => `${a.staticUrl}/themes/${themeId}`;

/**
 * An asset's `file` link. The digest in the path makes the URL immutable: new bytes get a new URL,
 * so the file can be cached for a year. The name is one path parameter, its `/` encoded as the OpenAPI document
 * describes it (`images%2Flogo.png`): the server reads both forms, tools that follow the document only this one.
 */
export function assetFileUrl(a: Addresses, asset: AssetRow): string {
  return `${staticThemeUrl(a, asset.theme_id)}/assets/${asset.digest}/${encodeURIComponent(asset.file_name)}`;
}

/**
 * The theme's preview page, a folder on `{static_url}`: the layout is its index, and the references of the
 * layout and stylesheets resolve by relative path to the theme's current templates and assets under it.
 */
export function previewUrl(a: Addresses, theme: ThemeRow): string {
  return `${staticThemeUrl(a, theme.id)}/preview/${theme.preview_key}/`;
}
