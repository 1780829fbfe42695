/**
 * What a route module is: a list of {@link Route}s. The router matches them, the core authenticates,
 * handles suffixes, HEAD, conditional requests, JSONP, headers and errors once for all of them.
 */
import type { Scope } from '@storefront-platform/sdk/internal';
import type { CoreContext, CoreRequest, Principal } from '../core/types.js';
import type { Entity } from './entity.js';
import type { RepresentationCache } from './representation-cache.js';

/** Methods a route may declare. HEAD is served by every GET route; OPTIONS is the CORS preflight. */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One request as a handler sees it. */
export interface Call<P extends Principal | undefined = Principal> {
  context: CoreContext;
  request: CoreRequest;
  /**
   * Path parameters, decoded (`:name`), and the rest of the path for a trailing `*name`: undecoded but for `%2F`,
   * read as `/` (a file name sent as one path parameter).
   */
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** The caller: always present on routes that declare a scope. */
  principal: P;
  /** Representations and derived data of this core, rebuilt only when the store changes. */
  cache: RepresentationCache;
}

/** What a handler returns; the core adds the common headers, 304s, JSONP and HEAD handling. */
export interface Reply {
  /** Default 200. */
  status?: number;
  /** The representation to send; absent for 204. */
  entity?: Entity;
  /** Extra or overriding headers, lower-case (e.g. `location`, or `cache-control` of a static file). */
  headers?: Readonly<Record<string, string>>;
}

interface RouteBase {
  method: Method;
  /**
   * Path under the mount: literal segments, `:name` parameters and an optional trailing `*name` for the rest
   * of the path, e.g. `/shops/:shop_id/products/:id`. On the API mount `.json`/`.jsonp` suffixes are implied.
   */
  path: string;
}

/** A route that needs a token carrying `scope` (`admin` implies `public`). */
export interface ScopedRoute extends RouteBase {
  scope: Scope;
  handle(call: Call<Principal>): Reply | Promise<Reply>;
}

/** A route open without a token (documentation pages, asset files). */
export interface OpenRoute extends RouteBase {
  scope: null;
  handle(call: Call<undefined>): Reply | Promise<Reply>;
}

export type Route = ScopedRoute | OpenRoute;
