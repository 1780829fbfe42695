/**
 * The API's limits on what a theme holds, from the contract the reference server enforces
 * (`API_LIMITS`). Nothing larger can be a theme's file, so the tool refuses anything larger from a server before
 * writing it, or before reading it whole.
 */
import { API_LIMITS } from '@storefront-platform/sdk/internal';

/** Largest template body, in UTF-8 bytes. */
export const MAX_TEMPLATE_BYTES = API_LIMITS.templateBytes;
/** Largest asset file, in bytes. */
export const MAX_ASSET_BYTES = API_LIMITS.assetBytes;
/** Most templates in one theme. */
export const MAX_TEMPLATES_PER_THEME = API_LIMITS.templatesPerTheme;
/** Most assets in one theme. */
export const MAX_ASSETS_PER_THEME = API_LIMITS.assetsPerTheme;

/**
 * Largest JSON answer the tool reads: a theme at every limit, its templates embedded with their bodies. JSON
 * escapes a body's quotes, backslashes and line breaks, so each counts twice its size (ordinary templates grow by
 * a tenth); each file gets 4 KiB for its properties and links.
 */
export const MAX_DOCUMENT_BYTES =
  MAX_TEMPLATES_PER_THEME * (2 * MAX_TEMPLATE_BYTES + 4096) + MAX_ASSETS_PER_THEME * 4096;
