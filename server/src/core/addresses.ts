/** The addresses clients see, all derived from one origin (wire contract, "Addresses"). */
import type { Addresses } from './types.js';

/**
 * The addresses under `origin`. Only an http(s) origin is accepted: the server's paths (`/v1`, `/oauth`,
 * `/static`, `/rels`) are not relocatable, and MSW in Node matches absolute URLs. `option` names the option the
 * origin came from, for the error.
 */
export function addressesOf(origin: string, option = 'origin'): Addresses {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new TypeError(`${option} must be an absolute URL, got "${origin}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash) {
    throw new TypeError(`${option} must be an http(s) origin without path, query or fragment, got "${origin}"`);
  }
  return {
    origin: url.origin,
    baseUrl: `${url.origin}/v1`,
    authUrl: url.origin,
    staticUrl: `${url.origin}/static`,
  };
}
