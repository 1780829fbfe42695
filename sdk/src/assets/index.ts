/**
 * @storefront-platform/sdk/assets: the API's check of a theme asset's content, for an app or a tool to run before
 * it uploads: `checkAssetContent(fileName, bytes)` says whether the bytes are a file of the kind the extension
 * names (a PNG named `.png`, not a JPEG or a truncated PNG), with the media type the API serves it with and the
 * words of the API's 422. A subpath of its own: the main entry carries none of it.
 *
 * @packageDocumentation
 */
export { type AssetContent, checkAssetContent } from './content.js';
