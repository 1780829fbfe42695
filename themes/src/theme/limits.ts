/**
 * The API's limits on what a theme holds, from the contract the reference server enforces
 * (`API_LIMITS`). Nothing larger can be a theme's file, so the tool refuses anything larger from a server before
 * writing it, or before reading it whole.
 */
import { API_LIMITS, maxThemeDocumentBytes } from '@storefront-platform/sdk';

/** Largest template body, in UTF-8 bytes. */
export const MAX_TEMPLATE_BYTES = API_LIMITS.templateBytes;
/** Largest asset file, in bytes. */
export const MAX_ASSET_BYTES = API_LIMITS.assetBytes;
/** Most templates in one theme. */
export const MAX_TEMPLATES_PER_THEME = API_LIMITS.templatesPerTheme;
/** Most assets in one theme. */
export const MAX_ASSETS_PER_THEME = API_LIMITS.assetsPerTheme;
/** Most bytes of all asset files of one theme together. */
export const MAX_ASSET_BYTES_PER_THEME = API_LIMITS.assetBytesPerTheme;

/**
 * Largest JSON answer the tool reads: a theme at every limit, its templates embedded with their bodies, as the SDK
 * bounds it (JSON escapes a control character of a body as six bytes).
 */
export const MAX_DOCUMENT_BYTES = maxThemeDocumentBytes();
