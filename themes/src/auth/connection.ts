/** Where the API and the token endpoint are, from the one origin the developer gives. */
import type { AppCredentials } from '../config/store.js';
import { UsageError } from '../errors.js';

/** The API root and the authorization service of an origin (the reference server's layout). */
export interface Endpoints {
  /** `{url}/v1`, the API root. */
  baseUrl: string;
  /** `{url}`: the token endpoint is `/oauth/token` below it. */
  authUrl: string;
}

export function endpointsOf(app: Pick<AppCredentials, 'url'>): Endpoints {
  return { baseUrl: `${app.url}/v1`, authUrl: app.url };
}

/**
 * An origin given on the command line or in `STOREFRONT_URL`, checked, as `scheme://host[:port]`. A path is
 * refused rather than kept: the API is at `{origin}/v1` and the token endpoint at `{origin}/oauth/token`, so the
 * "Base URL" the server prints (`…/v1`) would only fail later, at login, with a 404.
 */
export function originOf(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !/^https?:$/.test(url.protocol)) {
    throw new UsageError(`"${value}" is not an http(s) URL (e.g. http://localhost:4000)`);
  }
  if (url.pathname.replace(/\/+$/, '') !== '' || url.search || url.hash) {
    throw new UsageError(`"${value}" is not the server's origin: give ${url.origin} (the API is at ${url.origin}/v1)`);
  }
  return url.origin;
}
