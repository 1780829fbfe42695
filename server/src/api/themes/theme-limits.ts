/**
 * How much one theme may hold. Bounded so that a theme's representation, its copy as a development theme and
 * the data file stay a sensible size whatever clients send.
 */
import { HttpError, validationError } from '../../http/http-error.js';
import type { ThemeRow, Transaction } from '../../store/types.js';

/** Most templates in one theme. */
export const MAX_TEMPLATES_PER_THEME = 1000;
/** Most assets in one theme. */
export const MAX_ASSETS_PER_THEME = 300;
/** Most bytes of all asset files of one theme together. */
export const MAX_ASSET_BYTES_PER_THEME = 64 * 1024 * 1024;

/** Throws a 422 on `file_name` when the theme has no room for another template. */
export function assertRoomForTemplate(tx: Transaction, theme: ThemeRow): void {
  if (tx.where('templates', 'theme_id', theme.id).length >= MAX_TEMPLATES_PER_THEME) {
    throw validationError(
      'file_name',
      `the theme already holds ${MAX_TEMPLATES_PER_THEME} templates; delete some first`,
    );
  }
}

/**
 * Throws when the theme has no room for a file of `size` bytes replacing `replacing` bytes: a 422 on
 * `file_name` past the asset count, a 413 past the total size.
 */
export function assertRoomForAsset(tx: Transaction, theme: ThemeRow, size: number, replacing?: number): void {
  const assets = tx.where('assets', 'theme_id', theme.id);
  if (replacing === undefined && assets.length >= MAX_ASSETS_PER_THEME) {
    throw validationError('file_name', `the theme already holds ${MAX_ASSETS_PER_THEME} assets; delete some first`);
  }
  const total = assets.reduce((sum, a) => sum + a.file_size, 0) - (replacing ?? 0) + size;
  if (total > MAX_ASSET_BYTES_PER_THEME) {
    throw new HttpError(
      413,
      `The theme's assets would exceed ${MAX_ASSET_BYTES_PER_THEME} bytes in all; delete some first`,
    );
  }
}
