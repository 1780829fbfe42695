/**
 * The control API: the sandbox's operations over HTTP at `{origin}/_sandbox`, for every process and language
 * that cannot reach the MSW mock. Guarded by a bearer token (never a cookie, so that a page a developer visits
 * cannot send it) and without CORS headers, so that a browser refuses a page of another origin its answers.
 */
import { timingSafeEqual } from 'node:crypto';
import { TriggerError } from '../api/events/trigger.js';
import { BodyTooLargeError } from '../core/body-limit.js';
import { requestIdOf } from '../core/request-id.js';
import type { CoreHandler, CoreRequest, CoreResponse } from '../core/types.js';
import { StoreUnavailableError } from '../store/errors.js';
import { failure, json } from './answers.js';
import type { FaultRuleInput } from './faults.js';
import type { JournalFilter } from './journal.js';
import { CONTROL_OPERATIONS, CONTROL_PATH, type ControlOperation } from './operations.js';
import type { Sandbox } from './sandbox.js';
import { SandboxError } from './sandbox-error.js';
import { teamAnswers } from './team-door.js';
import { TEAM_KINDS } from './team-operations.js';
import { eventOperations, tokenOperations } from './twin-operations.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const noContent: CoreResponse = { status: 204, headers: { 'cache-control': 'no-store' } };

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new SandboxError(`Not a percent-encoded name: "${segment}"`, 400);
  }
}

function tokenMatches(header: string | null, token: string): boolean {
  const given = /^Bearer +(\S+)$/i.exec(header ?? '')?.[1];
  if (given === undefined) return false;
  const a = encoder.encode(given);
  const b = encoder.encode(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function bodyOf(request: CoreRequest): Promise<Record<string, unknown>> {
  const text = decoder.decode(await request.body());
  let parsed: unknown;
  try {
    parsed = JSON.parse(text || 'null');
  } catch {
    throw new SandboxError('The body must be JSON', 400);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SandboxError('The body must be a JSON object', 400);
  }
  return parsed as Record<string, unknown>;
}

/** `2026-01-01T00:00:00Z` or epoch milliseconds. */
function instantOf(value: unknown): number {
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (Number.isNaN(ms))
      throw new SandboxError(`"now" must be an ISO 8601 date or epoch milliseconds, got "${value}"`, 400);
    return ms;
  }
  return value as number;
}

function filterOf(query: URLSearchParams): JournalFilter {
  const filter: JournalFilter = {};
  const method = query.get('method');
  const path = query.get('path');
  const status = query.get('status');
  if (method) filter.method = method.toUpperCase();
  if (path) filter.path = path;
  if (status !== null) {
    if (!/^[1-5]\d\d$/.test(status)) throw new SandboxError(`"status" must be an HTTP status, got "${status}"`, 400);
    filter.status = Number(status);
  }
  return filter;
}

/**
 * `handle`, with the control API of `sandbox` answered in front of it at `{origin}/_sandbox` for requests bearing
 * `token`. The core never sees those requests, nor the journal.
 */
export function withControlDoor(handle: CoreHandler, sandbox: Sandbox, origin: string, token: string): CoreHandler {
  const base = `${new URL(origin).pathname.replace(/\/+$/, '')}${CONTROL_PATH}`;
  const href = (path: string) => `${origin}${CONTROL_PATH}${path}`;
  const clockBody = () => {
    const now = sandbox.clock.now();
    return {
      _class: ['clock'],
      now: new Date(now).toISOString(),
      epoch_ms: now,
      _links: { self: { href: href('/clock') } },
    };
  };
  const rateLimitBody = () => ({
    _class: ['rate_limit'],
    ...(sandbox.rateLimit.get() ?? { limit: null }),
    _links: { self: { href: href('/rate-limit') } },
  });
  const snapshotBody = (info: { name: string; taken_on: string }) => ({
    ...info,
    _links: {
      self: { href: href(`/snapshots/${info.name}`) },
      restore: { href: href(`/snapshots/${info.name}/restore`) },
    },
  });

  /** Each operation of {@link CONTROL_OPERATIONS}, answered: the door has these and no others. */
  const operations: Record<ControlOperation, (request: CoreRequest, name: string) => Promise<CoreResponse>> = {
    ...teamAnswers(sandbox, href, bodyOf),
    describe: async () =>
      json(200, {
        _class: ['sandbox'],
        _links: {
          self: { href: href('') },
          reset: { href: href('/reset') },
          snapshots: { href: href('/snapshots') },
          snapshot: { href: href('/snapshots/{name}'), templated: true },
          clock: { href: href('/clock') },
          journal: { href: href('/journal{?method,path,status}'), templated: true },
          faults: { href: href('/faults') },
          ...Object.fromEntries(TEAM_KINDS.map((kind) => [kind, { href: href(`/${kind}`) }])),
          tokens: { href: href('/tokens') },
          expire_token: { href: href('/tokens/expire') },
          events: { href: href('/events') },
          deliveries: { href: href('/webhooks/deliveries') },
          drain: { href: href('/webhooks/drain') },
          'rate-limit': { href: href('/rate-limit') },
        },
      }),
    reset: async () => {
      await sandbox.reset();
      return noContent;
    },
    'snapshots.list': async () => {
      const list = await sandbox.snapshots.list();
      return json(200, {
        _class: ['snapshots'],
        snapshots: list.map(snapshotBody),
        _links: { self: { href: href('/snapshots') } },
      });
    },
    'snapshots.take': async (_, name) => json(201, snapshotBody(await sandbox.snapshots.take(name))),
    'snapshots.restore': async (_, name) => {
      await sandbox.snapshots.restore(name);
      return noContent;
    },
    'snapshots.delete': async (_, name) => {
      await sandbox.snapshots.delete(name);
      return noContent;
    },
    'clock.now': async () => json(200, clockBody()),
    'clock.set': async (request) => {
      sandbox.clock.set(instantOf((await bodyOf(request)).now));
      await sandbox.settled();
      return json(200, clockBody());
    },
    'clock.advance': async (request) => {
      sandbox.clock.advance((await bodyOf(request)).ms as number);
      await sandbox.settled();
      return json(200, clockBody());
    },
    'journal.entries': async (request) => {
      const entries = await sandbox.journal.entries(filterOf(request.url.searchParams));
      return json(200, { _class: ['journal'], entries, _links: { self: { href: href('/journal') } } });
    },
    'journal.clear': async () => {
      await sandbox.journal.clear();
      return noContent;
    },
    'faults.list': async () =>
      json(200, { _class: ['faults'], faults: sandbox.faults.list(), _links: { self: { href: href('/faults') } } }),
    'faults.add': async (request) => {
      const rule = sandbox.faults.add((await bodyOf(request)) as unknown as FaultRuleInput);
      await sandbox.settled();
      return json(201, rule, { location: href('/faults') });
    },
    'faults.clear': async () => {
      sandbox.faults.clear();
      await sandbox.settled();
      return noContent;
    },
    ...tokenOperations(sandbox, bodyOf),
    ...eventOperations(sandbox, bodyOf, href),
    'rateLimit.get': async () => json(200, rateLimitBody()),
    'rateLimit.set': async (request) => {
      const body = await bodyOf(request);
      if (!('limit' in body))
        throw new SandboxError('The body is {"limit": "120/60s"}, or {"limit": null} for none', 400);
      sandbox.rateLimit.set(body.limit as string | null);
      await sandbox.settled();
      return json(200, rateLimitBody());
    },
  };

  async function control(request: CoreRequest, rest: string, requestId: string): Promise<CoreResponse> {
    // A preflight gets no CORS headers: the browser then refuses the page its request.
    if (request.method === 'OPTIONS') return { status: 204, headers: { allow: 'GET, PUT, POST, DELETE' } };
    if (!tokenMatches(request.headers.get('authorization'), token)) {
      const message = 'The control API needs the control token (printed at start) as "Authorization: Bearer …"';
      return failure(401, message, requestId, { 'www-authenticate': 'Bearer realm="storefront-sandbox"' });
    }
    const parts = rest.split('/').filter(Boolean);
    for (const [operation, { method, path }] of Object.entries(CONTROL_OPERATIONS)) {
      if (method !== request.method) continue;
      const pattern = path.split('/').filter(Boolean);
      if (pattern.length !== parts.length) continue;
      if (!pattern.every((segment, i) => segment === ':name' || segment === parts[i])) continue;
      const at = pattern.indexOf(':name');
      // What another process of a fleet changed (rules, their hits, the clock) shows here too.
      await sandbox.settled();
      return operations[operation as ControlOperation](request, at < 0 ? '' : decoded(parts[at]!));
    }
    return failure(404, `No control at ${request.method} ${request.url.pathname}`, requestId);
  }

  return async (request) => {
    const path = request.url.pathname;
    const rest = path.startsWith(base) ? path.slice(base.length) : undefined;
    if (rest === undefined || (rest !== '' && rest[0] !== '/')) return handle(request);
    // Its errors name their request as the API's do, in the body and in `X-Request-Id`.
    const requestId = requestIdOf(request.headers.get('x-request-id'));
    try {
      return await control(request, rest, requestId);
    } catch (error) {
      if (error instanceof SandboxError) return failure(error.status, error.message, requestId);
      if (error instanceof TriggerError) return failure(400, error.message, requestId);
      if (error instanceof BodyTooLargeError) {
        return failure(413, `The body is larger than ${error.limit} bytes`, requestId);
      }
      if (error instanceof StoreUnavailableError) {
        console.error(`storefront-server: ${request.method} ${path} 503: ${error.message}`);
        const message = 'Service unavailable: the database did not answer; try again';
        return failure(503, message, requestId, { 'retry-after': '1' });
      }
      console.error(error);
      return failure(500, 'Internal server error', requestId);
    }
  };
}
