/** The addresses the mocked service answers at, derived from one origin like the reference server's. */
import type { Addresses } from '../core/types.js';

/** The default origin of the handlers, the reference server's default address. */
export const DEFAULT_ORIGIN = 'http://localhost:4000';

/**
 * The addresses under `origin`. Only an http(s) origin is accepted: MSW in Node matches absolute URLs, and the
 * server's paths (`/v1`, `/oauth`, `/static`, `/rels`) are not relocatable.
 */
export function addressesOf(origin: string): Addresses {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new TypeError(`origin must be an absolute URL, got "${origin}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash) {
    throw new TypeError(`origin must be an http(s) origin without path, query or fragment, got "${origin}"`);
  }
  return {
    origin: url.origin,
    baseUrl: `${url.origin}/v1`,
    authUrl: url.origin,
    staticUrl: `${url.origin}/static`,
  };
}
