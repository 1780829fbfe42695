/**
 * Cache keys: the owner and the normalised URL. Owners are percent-encoded so that no owner can forge
 * another owner's prefix, and a normalised URL holds no space, so the key splits back unambiguously.
 */

/** `url` parsed and serialised by the WHATWG URL parser (host case, default port, escapes) without its fragment. */
export function normaliseUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

/** The store key of a GET of `url` by `owner`. */
export function cacheKey(owner: string, url: string): string {
  return `${encodeURIComponent(owner)} ${normaliseUrl(url)}`;
}
