/**
 * The API's limits on what a theme holds (the reference server enforces them on every write, in
 * server/src/api/themes/: template.ts, asset.ts, theme.ts; limits.test.ts keeps these equal to its own). Nothing
 * larger can be a theme's file, so the tool refuses anything larger from a server before writing it, or before
 * reading it whole.
 */

/** Largest template body, in UTF-8 bytes. */
export const MAX_TEMPLATE_BYTES = 64 * 1024;
/** Largest asset file, in bytes. */
export const MAX_ASSET_BYTES = 1024 * 1024;
/** Most templates in one theme. */
export const MAX_TEMPLATES_PER_THEME = 1000;
/** Most assets in one theme. */
export const MAX_ASSETS_PER_THEME = 300;

/**
 * Largest JSON answer the tool reads: a theme at every limit, its templates embedded with their bodies. JSON
 * escapes a body's quotes, backslashes and line breaks, so each counts twice its size (ordinary templates grow by
 * a tenth); each file gets 4 KiB for its properties and links.
 */
export const MAX_DOCUMENT_BYTES =
  MAX_TEMPLATES_PER_THEME * (2 * MAX_TEMPLATE_BYTES + 4096) + MAX_ASSETS_PER_THEME * 4096;
