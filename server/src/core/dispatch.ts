/**
 * The request pipeline shared by every route: CORS preflight, the OAuth service, then the mounts
 * (API, static files, relation pages) with routing, authentication, scopes, JSONP and error rendering.
 */
import type { Scope } from '@storefront-platform/sdk/internal';
import { hasScope } from '../api/access.js';
import { preflightHeaders, withCors } from '../http/cors.js';
import { diskFailureError, diskFailureLine, diskFailureOf } from '../http/disk-failure.js';
import { HttpError, notFound } from '../http/http-error.js';
import { jsonpCallback } from '../http/jsonp.js';
import type { RepresentationCache } from '../http/representation-cache.js';
import { type Exchange, exchangeHeaders, respond, respondError } from '../http/respond.js';
import type { Call, Reply, Route } from '../http/route.js';
import type { Router } from '../http/router.js';
import { oauthServerError, oauthUnavailable } from '../oauth/responses.js';
import { requestLine } from '../shared/request-line.js';
import { StoreUnavailableError } from '../store/errors.js';
import type { Authenticator } from './authenticator.js';
import { BodyAbortedError } from './body-aborted.js';
import { BodyTooLargeError } from './body-limit.js';
import { isOAuthPath, storeUnavailable } from './failure-answer.js';
import { answerOnce } from './idempotency.js';
import { requestIdOf } from './request-id.js';
import type { CoreContext, CoreHandler, CoreRequest, CoreResponse } from './types.js';

/** A router serving every path under `prefix` (a URL path without trailing slash, e.g. `/v1`). */
export interface Mount {
  prefix: string;
  router: Router;
  /**
   * Whether this is the resource API, whose responses (errors included) carry `X-OAuth-Scopes` and
   * `X-Accepted-OAuth-Scopes` (wire contract, "Headers"); theme files and relation pages are not.
   */
  api?: boolean;
}

/** What the pipeline is built from. */
export interface Pipeline {
  context: CoreContext;
  cache: RepresentationCache;
  authenticate: Authenticator;
  /** The 403 for a token that lacks `scope`. */
  insufficientScope: (scope: Scope) => HttpError;
  /**
   * Answers the authorization service's paths, its error bodies naming the request by `requestId`; `undefined` for
   * any other path.
   */
  oauth: (request: CoreRequest, requestId: string) => Promise<CoreResponse | undefined>;
  mounts: readonly Mount[];
}

function within(path: string, prefix: string): string | undefined {
  if (!path.startsWith(prefix)) return undefined;
  const rest = path.slice(prefix.length);
  return rest === '' || rest[0] === '/' || rest[0] === '.' ? rest : undefined;
}

/** Builds the core's handler. */
export function createPipeline(pipeline: Pipeline): CoreHandler {
  const mounts = [...pipeline.mounts].sort((a, b) => b.prefix.length - a.prefix.length);
  const { context, cache } = pipeline;

  async function run(request: CoreRequest, exchange: Exchange): Promise<Reply | Answered> {
    const path = request.url.pathname;
    let match: ReturnType<Router['match']>;
    let prefix = '';
    for (const mount of mounts) {
      const rest = within(path, mount.prefix);
      if (rest === undefined) continue;
      prefix = mount.prefix;
      if (mount.api) {
        exchange.scopes = '';
        exchange.acceptedScopes = '';
      }
      match = mount.router.match(request.method, rest);
      break;
    }
    if (!match) throw notFound(`No resource at ${path}`);
    if (!match.route) {
      // A HEAD is answered as its GET would be, length included: the same words.
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      throw new HttpError(405, `Method ${method} not allowed here`, undefined, { allow: match.allow });
    }
    const query = request.url.searchParams;
    const route: Route = match.route;
    // The call's own context: what its writes record (an event names the request that caused it) knows the request.
    const own: CoreContext = { ...context, requestId: exchange.requestId };
    if (request.trace) request.trace.route = `${route.method} ${prefix}${route.path}`;
    const { params } = match;
    // A bad callback is a 400 before anything else; yet, like every answer of the API, it tells what the token
    // may do, so its principal is read first.
    const callback = match.jsonp ? () => jsonpCallback(query) : undefined;
    if (route.scope === null) {
      if (callback) exchange.jsonp = callback();
      return route.handle({ context: own, request, params, query, cache, principal: undefined });
    }
    exchange.acceptedScopes = route.scope;
    const principal = pipeline.authenticate(request, match.jsonp);
    if (!(principal instanceof HttpError)) {
      exchange.scopes = principal.scopes.join(',');
      if (request.trace) Object.assign(request.trace, { appId: principal.appId, userId: principal.userId });
    }
    if (callback) exchange.jsonp = callback();
    if (principal instanceof HttpError) throw principal;
    // Every request of a caller counts, those refused for their scope too: the fields go on its answer, whatever it is.
    if (context.rateLimit) exchange.limits = await context.rateLimit.take(principal);
    if (!hasScope(principal, route.scope)) throw pipeline.insufficientScope(route.scope);
    const call: Call = { context: own, request, params, query, cache, principal };
    const key = route.method === 'POST' ? request.headers.get('idempotency-key') : null;
    if (key === null) return route.handle(call);
    const now = () => context.clock.now();
    const render = (reply: Reply) => respond(exchange, reply, now());
    return { response: await answerOnce(call, key, route.handle, render, () => exchangeHeaders(exchange, now())) };
  }

  return async (request) => {
    const requestId = requestIdOf(request.headers.get('x-request-id'));
    if (request.trace) request.trace.requestId = requestId;
    const response = await answer(request, requestId);
    // Every answer names its request, a stored answer replayed included (`idempotency.ts` keeps none of it).
    response.headers['x-request-id'] = requestId;
    return response;
  };

  async function answer(request: CoreRequest, requestId: string): Promise<CoreResponse> {
    if (request.method === 'OPTIONS') return { status: 204, headers: preflightHeaders() };
    const exchange: Exchange = { method: request.method, headers: request.headers, requestId };
    let oauth = isOAuthPath(request.url.pathname);
    try {
      // Read-your-writes across processes: a store other processes write too (PostgreSQL) catches up with what
      // any of them acknowledged before this request is served; `undefined` when there is nothing to wait for.
      const current = request.caughtUp ? undefined : context.store.sync?.();
      if (current) await current;
      if (oauth) {
        const response = await pipeline.oauth(request, requestId);
        if (response) {
          if (request.trace) request.trace.route = `oauth ${request.url.pathname}`;
          return withCors(response);
        }
        oauth = false;
      }
      const reply = await run(request, exchange);
      if ('response' in reply) return reply.response;
      return respond(exchange, reply, context.clock.now());
    } catch (error) {
      const disk = diskFailureOf(error);
      if (disk) {
        const response = oauth
          ? withCors(oauthUnavailable(requestId))
          : respondError(exchange, diskFailureError(disk), context.clock.now());
        console.error(diskFailureLine(context.store, disk, requestLine(request.method, request.url), response.status));
        return response;
      }
      if (error instanceof StoreUnavailableError) {
        console.error(`storefront-server: ${requestLine(request.method, request.url)} 503: ${error.message}`);
        return storeUnavailable(exchange, oauth, context.clock.now());
      }
      if (!oauth) return respondError(exchange, toHttpError(error), context.clock.now());
      // A bug or a failed store write, not bad input (the service answers that itself): log it, answer 500.
      console.error(error);
      return withCors(oauthServerError(requestId));
    }
  }
}

/** An answer `run` made whole, a replayed one or one stored with its write (`idempotency.ts`). */
interface Answered {
  response: CoreResponse;
}

function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof BodyTooLargeError) {
    return new HttpError(413, `Request body too large: at most ${error.limit} bytes`);
  }
  if (error instanceof BodyAbortedError) return new HttpError(400, 'The request body was cut short');
  // A bug, not bad input: keep the details in the server's log, out of the response.
  console.error(error);
  return new HttpError(500, 'Internal server error');
}
