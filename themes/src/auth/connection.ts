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

/** An origin given on the command line or in `STOREFRONT_URL`, checked and without a trailing slash. */
export function originOf(value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new UsageError(`"${value}" is not an http(s) URL (e.g. http://localhost:4000)`);
  }
  return value.replace(/\/+$/, '');
}
