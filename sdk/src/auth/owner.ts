import { encodeBase64Url } from '../shared/base64.js';

/**
 * An owner id for a token whose user is unknown to the SDK: a SHA-256 digest of the token, so that cache keys
 * (which may land in Redis or IndexedDB) never hold the token itself, and two tokens never share a partition.
 */
export async function tokenOwner(kind: string, token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return `${kind}:${encodeBase64Url(new Uint8Array(digest)).slice(0, 22)}`;
}
