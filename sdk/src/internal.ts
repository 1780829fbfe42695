/**
 * @storefront-platform/sdk/internal: what `storefront-server` shares with the SDK — the whole wire contract (the typed
 * representations and relation maps the public entry keeps to itself), the few encoding helpers both sides
 * must agree on, and the SDK's reading of URI templates and curies, which the server's API explorer builds its
 * forms and documentation links from, the size of the largest theme the API sends (the themes CLI's answer limit),
 * the CRC-32 that PNG's chunks carry (the asset check reads it, the server's seed writes it), the SDK's
 * least-recently-used map, which bounds the server's memos too, and the
 * concurrency limit the server's store and the themes CLI share. The API's limits too, which the public entry exports
 * as well: from here the server has them without loading the client (ky, and with it Node's fetch), a tenth of its
 * start.
 * Not for apps: it follows the server's needs, not semantic versioning.
 *
 * @packageDocumentation
 */
export { basicAuthorization } from './auth/client-authentication.js';
export type * from './contract/index.js';
export { API_LIMITS, ASSET_EXTENSIONS } from './contract/limits.js';
export { redactUrl } from './errors/redact.js';
export { Curies } from './resource/curies.js';
export { describeTemplateVariables, type TemplateVariable } from './resource/uri-template.js';
export { decodeBase64, decodeBase64Url, encodeBase64, encodeBase64Url } from './shared/base64.js';
export { crc32 } from './shared/crc32.js';
export { Lru, type LruOptions } from './shared/lru.js';
export { mapLimited } from './shared/map-limited.js';
export { isPkceValue } from './shared/pkce.js';
export { JSON_ESCAPE_FACTOR } from './shared/theme-document.js';
