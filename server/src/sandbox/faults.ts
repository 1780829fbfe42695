/**
 * Fault rules: answers a test puts in front of the core (an error status, a delay, a connection cut, a body cut
 * short or trickling, an expired token), for matching requests, a number of times, with a probability drawn from a
 * seeded generator. One set of rules per sandbox, kept in its store (so that every process of a fleet applies
 * them), decided here for both doors (the Express shell and the MSW mock).
 */
import { failureAnswer, storeUnavailableAnswer } from '../core/failure-answer.js';
import { requestIdOf } from '../core/request-id.js';
import type { CoreHandler, CoreRequest, CoreResponse } from '../core/types.js';
import { HttpError } from '../http/http-error.js';
import { pause } from '../shared/pause.js';
import { StoreUnavailableError } from '../store/errors.js';
import type { FaultRuleRow, Store } from '../store/types.js';
import { matcherOf, relationMethods } from './fault-match.js';
import { OwnWrites } from './own-writes.js';
import { relationRoutes } from './relation-routes.js';
import { SandboxError } from './sandbox-error.js';
import { ConnectionResetFault, type ShellFault, TruncatedFault } from './shell-fault.js';
import { SlowBodyFault } from './slow-body.js';

/**
 * What a fault does to a request it hits: answer an error `status`; `delay` it; `reset` the connection; send a
 * `truncated` body; send a `slow_body` (headers at once, the body at `bytes_per_second`); or make its bearer token
 * an `expired_token` just before the core answers it (the core's 401 for an expired token).
 */
export type FaultKind = 'status' | 'delay' | 'reset' | 'truncated' | 'slow_body' | 'expired_token';

const KINDS: readonly FaultKind[] = ['status', 'delay', 'reset', 'truncated', 'slow_body', 'expired_token'];

/** A fault rule as a test gives it (the same JSON at both doors). Only `kind` is required. */
export interface FaultRuleInput {
  kind: FaultKind;
  /** Only requests of this method (any case). Default: every method. */
  method?: string;
  /**
   * The paths it matches, whole: `/v1/products.json`, `/v1/shops/:shop_id/theme.json` (`:name`: one segment),
   * `/v1/*` (`*`: anything, slashes included). Default: every path.
   */
  path?: string;
  /**
   * Instead of `path`: the requests that follow the links of this relation of the API (`svc:products`, or
   * `products`), at the routes they point to, with the relation's method (and HEAD for a GET). Listed by its full
   * name.
   */
  relation?: string;
  /** `status`: the status answered (400 to 599). Default 500. */
  status?: number;
  /** `status`: seconds sent as `Retry-After`. */
  retry_after?: number;
  /** `status`: the `message` of the error body. Default: the status's reason. */
  message?: string;
  /** `delay`: milliseconds the request is held before the core answers it, or `[min, max]` drawn uniformly. */
  delay_ms?: number | [number, number];
  /** `truncated`: the bytes of the body sent before the connection ends. Default: half the body. */
  bytes?: number;
  /** `slow_body`: the pace of the body, bytes per second (1 to 10 000 000); its headers go out at once. */
  bytes_per_second?: number;
  /** How many hits, then the rule is spent. Default: no limit. */
  times?: number;
  /** The chance (0 to 1) that a matching request is hit. Default 1. */
  probability?: number;
  /** Seeds the rule's generator (probability and delay draws): the same seed, the same hits. Default: random. */
  seed?: number;
}

/** A rule as listed: what was given, with its defaults, its id and what it did so far. */
export interface FaultRule
  extends Required<Pick<FaultRuleInput, 'kind' | 'probability' | 'seed'>>,
    Pick<FaultRuleInput, 'status' | 'retry_after' | 'message' | 'delay_ms' | 'bytes' | 'bytes_per_second'> {
  id: string;
  method: string | null;
  path: string | null;
  relation: string | null;
  /** Hits left; null: no limit. */
  times: number | null;
  /** Requests it hit so far. */
  hits: number;
}

/** The fault rules of a sandbox. */
export interface SandboxFaults {
  /** Adds a rule; it applies to requests arriving from now on. Rules are tried in the order added. */
  add(rule: FaultRuleInput): FaultRule;
  /** The rules, spent ones included, in the order added. */
  list(): FaultRule[];
  /** Removes every rule. */
  clear(): void;
}

/**
 * The `n`-th number (from 0) of mulberry32's sequence for `seed`, in [0, 1): its state after `n + 1` steps is
 * `seed + (n + 1) · 0x6d2b79f5`, so any number of the sequence is computed directly, with no state kept between
 * draws. That lets every process of a fleet draw a rule's next number from the count stored with it.
 */
export function drawAt(seed: number, n: number): number {
  let t = (seed + Math.imul(n + 1, 0x6d2b79f5)) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** mulberry32: a small seeded generator of numbers in [0, 1); the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let n = 0;
  return () => drawAt(seed >>> 0, n++);
}

const encoder = new TextEncoder();

const REASONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

const refuse = (message: string): never => {
  throw new SandboxError(message, 400);
};

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isMs = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 600_000;

/** Checks a rule as given (either door), or throws a {@link SandboxError} 400 saying what is wrong. */
function checked(input: unknown, id: string): FaultRule {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) refuse('A fault rule is an object');
  const given = input as Record<string, unknown>;
  const known = [
    'kind',
    'method',
    'path',
    'relation',
    'status',
    'retry_after',
    'message',
    'delay_ms',
    'bytes',
    'bytes_per_second',
    'times',
    'probability',
  ];
  for (const key of Object.keys(given)) {
    if (!known.includes(key) && key !== 'seed') refuse(`A fault rule has no field "${key}"`);
  }
  const { kind, method, path, relation, times, probability, seed } = given;
  if (!KINDS.includes(kind as FaultKind)) {
    refuse(`A fault's kind is ${KINDS.map((k) => `"${k}"`).join(', ')}; got ${JSON.stringify(kind)}`);
  }
  if (method !== undefined && (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method))) {
    refuse(`A fault's method is an HTTP method, got ${JSON.stringify(method)}`);
  }
  if (path !== undefined && typeof path !== 'string') refuse(`A fault's path is a string, got ${JSON.stringify(path)}`);
  if (path !== undefined) matcherOf({ method: null, path: path as string, relation: null });
  if (relation !== undefined && path !== undefined) refuse('A fault rule names a "path" or a "relation", not both');
  if (relation !== undefined && typeof relation !== 'string') {
    refuse(`A fault's relation is a string, got ${JSON.stringify(relation)}`);
  }
  const fullRelation = relation === undefined ? null : relationRoutes(relation as string).relation;
  if (fullRelation !== null && method !== undefined) {
    const methods = relationMethods(fullRelation);
    if (!methods.includes((method as string).toUpperCase())) {
      refuse(
        `${fullRelation} is followed with ${methods.join(' or ')}: method ${JSON.stringify(method)} never matches`,
      );
    }
  }
  if (times !== undefined && !isCount(times)) refuse(`"times" is a whole number >= 0, got ${JSON.stringify(times)}`);
  if (probability !== undefined && !(typeof probability === 'number' && probability >= 0 && probability <= 1)) {
    refuse(`"probability" is a number from 0 to 1, got ${JSON.stringify(probability)}`);
  }
  if (seed !== undefined && !(Number.isInteger(seed) && (seed as number) >= 0 && (seed as number) < 2 ** 32)) {
    refuse(`"seed" is a whole number from 0 to 2^32 - 1, got ${JSON.stringify(seed)}`);
  }
  const rule: FaultRule = {
    id,
    kind: kind as FaultKind,
    method: method === undefined ? null : (method as string).toUpperCase(),
    path: (path as string | undefined) ?? null,
    relation: fullRelation,
    times: (times as number | undefined) ?? null,
    probability: (probability as number | undefined) ?? 1,
    seed: (seed as number | undefined) ?? Math.floor(Math.random() * 2 ** 32),
    hits: 0,
  };
  const only = (fields: string[]) => {
    for (const field of ['status', 'retry_after', 'message', 'delay_ms', 'bytes', 'bytes_per_second']) {
      if (given[field] !== undefined && !fields.includes(field)) refuse(`A ${kind} fault has no "${field}"`);
    }
  };
  if (kind === 'status') {
    only(['status', 'retry_after', 'message']);
    const status = given.status ?? 500;
    if (!(Number.isInteger(status) && (status as number) >= 400 && (status as number) <= 599)) {
      refuse(`A status fault's "status" is from 400 to 599, got ${JSON.stringify(given.status)}`);
    }
    rule.status = status as number;
    if (given.retry_after !== undefined) {
      if (!isCount(given.retry_after))
        refuse(`"retry_after" is whole seconds >= 0, got ${JSON.stringify(given.retry_after)}`);
      rule.retry_after = given.retry_after as number;
    }
    if (given.message !== undefined) {
      // Empty, the answer would say nothing (`{"message": ""}`): leave it out for the status's reason.
      if (typeof given.message !== 'string' || given.message.trim() === '') {
        refuse(
          `"message" is a text that says something (leave it out for the status's reason), got ${JSON.stringify(given.message)}`,
        );
      }
      rule.message = given.message as string;
    }
  } else if (kind === 'delay') {
    only(['delay_ms']);
    const ms = given.delay_ms;
    const range = Array.isArray(ms) && ms.length === 2 && isMs(ms[0]) && isMs(ms[1]) && ms[0] <= ms[1];
    if (!isMs(ms) && !range) {
      refuse(`A delay fault's "delay_ms" is milliseconds (0 to 600000) or [min, max], got ${JSON.stringify(ms)}`);
    }
    rule.delay_ms = Array.isArray(ms) ? [ms[0], ms[1]] : (ms as number);
  } else if (kind === 'truncated') {
    only(['bytes']);
    if (given.bytes !== undefined) {
      if (!isCount(given.bytes)) refuse(`"bytes" is a whole number >= 0, got ${JSON.stringify(given.bytes)}`);
      rule.bytes = given.bytes as number;
    }
  } else if (kind === 'slow_body') {
    only(['bytes_per_second']);
    const pace = given.bytes_per_second;
    if (!(Number.isInteger(pace) && (pace as number) >= 1 && (pace as number) <= 10_000_000)) {
      refuse(
        `A slow_body fault's "bytes_per_second" is a whole number from 1 to 10000000, got ${JSON.stringify(pace)}`,
      );
    }
    rule.bytes_per_second = pace as number;
  } else {
    only([]);
  }
  return rule;
}

/** What the rules decided for one request, and the id of the rule that did. */
type Decision = { rule: string } & (
  | { kind: 'answer'; error: HttpError }
  | { kind: 'delay'; ms: number }
  | { kind: 'reset' }
  | { kind: 'truncated'; bytes: number | undefined }
  | { kind: 'slow_body'; bytesPerSecond: number }
  | { kind: 'expired_token' }
);

/** Makes a token expire now; false when no such token was issued. */
export type ExpireToken = (token: string) => Promise<boolean>;

/** The bearer token a request carries (`Authorization: Bearer`, or `access_token` in the query of a JSONP GET). */
export function bearerTokenOf(request: Pick<CoreRequest, 'headers' | 'url'>): string | undefined {
  const header = /^Bearer +(\S+)/i.exec(request.headers.get('authorization') ?? '')?.[1];
  return header ?? request.url.searchParams.get('access_token') ?? undefined;
}

const bytesOf = (body: CoreResponse['body']) =>
  typeof body === 'string' ? encoder.encode(body) : (body ?? new Uint8Array(0));

/** A rule's id: random, so that processes sharing a store add rules at once without taking one another's ids. */
function newRuleId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `fault-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** A stored rule as listed: without its count of draws. */
function ruleOf(row: FaultRuleRow): FaultRule {
  const { draws: _, ...rule } = row;
  return rule as unknown as FaultRule;
}

/**
 * The fault rules of one sandbox, kept in its store's `fault_rules` (one row each, with its hits, hits left and
 * draws), and the handler that applies them. A store that other processes share (PostgreSQL) brings each rule to
 * every one of them, and its counters change only in the store's writes: a rule of `times: 1` hits one request
 * of the whole fleet, and a seed gives one sequence of hits in the order of the writes.
 */
export class FaultSet implements SandboxFaults {
  /** Each rule's matcher, by the rule's id: compiled once per process. */
  private readonly matchers = new Map<string, (method: string, path: string) => boolean>();
  private readonly own = new OwnWrites<FaultRule[]>();

  constructor(private readonly store: Store) {}

  add(input: FaultRuleInput): FaultRule {
    const rule = checked(input, newRuleId());
    const row = { ...rule, draws: 0 } as FaultRuleRow;
    this.own.change([...this.list(), rule], () => this.store.write((tx) => tx.insert('fault_rules', row)));
    return { ...rule };
  }

  list(): FaultRule[] {
    return this.own.read(() => this.store.all('fault_rules').map(ruleOf)).map((rule) => ({ ...rule }));
  }

  clear(): void {
    this.own.change([], () =>
      this.store.write((tx) => {
        for (const { id } of this.store.all('fault_rules')) tx.delete('fault_rules', id);
      }),
    );
  }

  /** Resolves once the rules added or cleared through this set so far are stored; rejects when one was not. */
  stored(): Promise<void> {
    return this.own.stored();
  }

  /** Removes every rule and forgets this set's own changes in flight: for a fleet's first process as it starts. */
  async reset(): Promise<void> {
    await this.own.idle();
    // Nothing written when there is nothing to remove: a start pays no write for it.
    if (this.store.all('fault_rules').length === 0) return;
    await this.store.write((tx) => {
      for (const { id } of this.store.all('fault_rules')) tx.delete('fault_rules', id);
    });
  }

  private matches(row: FaultRuleRow, method: string, path: string): boolean {
    if (row.times !== null && row.times <= 0) return false;
    let matcher = this.matchers.get(row.id);
    if (!matcher) {
      matcher = matcherOf(ruleOf(row));
      this.matchers.set(row.id, matcher);
    }
    return matcher(method, path);
  }

  /**
   * The first rule that hits a request of `method` at `path`. Every matching rule not spent draws from its
   * generator as though it were alone, an earlier rule's hit or not (its probability when below 1, then a delay
   * range when it would hit), so that a rule's draws depend only on its seed and the requests it matched: the
   * same seed, the same hits, whatever the other rules draw. No rule matching, nothing is written; otherwise one
   * write decides on the rules as committed.
   */
  async decide(method: string, path: string): Promise<Decision | undefined> {
    // A rule this process added or cleared a moment ago applies to the requests after it.
    if (this.own.pending) await this.own.idle();
    const matching = this.store.all('fault_rules').filter((row) => this.matches(row, method, path));
    if (matching.length === 0) return undefined;
    return this.store.write((tx) => {
      let decided: Decision | undefined;
      for (const { id } of matching) {
        const row = tx.get('fault_rules', id);
        if (!row || (row.times !== null && row.times <= 0)) continue;
        let draws = row.draws;
        const random = () => drawAt(row.seed, draws++);
        const hit = !(row.probability < 1 && random() >= row.probability);
        // A rule that would hit after another did draws its delay all the same, and is not counted as a hit.
        const decision = hit ? decisionOf(ruleOf(row), random) : undefined;
        if (decision && !decided) {
          decided = decision;
          tx.update('fault_rules', id, { draws, hits: row.hits + 1, times: row.times === null ? null : row.times - 1 });
        } else if (draws !== row.draws) {
          tx.update('fault_rules', id, { draws });
        }
      }
      return decided;
    });
  }

  /**
   * `handle`, with the rules applied in front of it; `expire` makes a token expire (`expired_token`); `now` dates
   * the answers the rules give; `stopping` cuts a `delay` short. The rule that hit is noted in the request's trace
   * (the journal's `fault`). A fault the shell carries out is thrown to it as a {@link ShellFault}.
   */
  around(handle: CoreHandler, expire: ExpireToken, now: () => number, stopping?: AbortSignal): CoreHandler {
    // An answer of the rules, not the core's: named as the core names its own (body and `X-Request-Id`).
    const answer = (request: CoreRequest, render: (requestId: string) => CoreResponse) => {
      const requestId = requestIdOf(request.headers.get('x-request-id'));
      if (request.trace) request.trace.requestId = requestId;
      return render(requestId);
    };
    return async (request) => {
      let decision: Decision | undefined;
      try {
        // Rules another process added or spent: caught up with first (unless the journal just did), which the core
        // then need not do again.
        const catchingUp = request.caughtUp ? undefined : this.store.sync?.();
        if (catchingUp) {
          await catchingUp;
          request.caughtUp = true;
        }
        decision = await this.decide(request.method, request.url.pathname);
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        console.error(`storefront-server: ${request.method} ${request.url.pathname} 503: ${error.message}`);
        // The core's own answer to the outage (the token endpoint's `temporarily_unavailable` included).
        return answer(request, (id) => storeUnavailableAnswer(request, id, now()));
      }
      if (decision && request.trace) request.trace.fault = decision.rule;
      if (decision?.kind === 'answer') {
        const { error } = decision;
        return answer(request, (id) => failureAnswer(request, error, id, now()));
      }
      if (decision?.kind === 'reset') throw new ConnectionResetFault();
      // Cut short when the server starts to stop: a stop waits for no rule's delay.
      if (decision?.kind === 'delay') await pause(decision.ms, stopping);
      if (decision?.kind === 'expired_token') {
        const token = bearerTokenOf(request);
        // The core then answers as for a token that expired on its own: its 401 and `WWW-Authenticate`.
        if (token !== undefined) await expire(token);
      }
      const response = await handle(request);
      if (decision?.kind === 'slow_body') {
        const body = bytesOf(response.body);
        const empty = request.method === 'HEAD' || response.status === 204 || response.status === 304;
        if (!empty && body.byteLength > 0) {
          throw new SlowBodyFault({ ...response, body }, decision.bytesPerSecond);
        }
      }
      if (decision?.kind === 'truncated') {
        const body = bytesOf(response.body);
        const cut = decision.bytes ?? Math.floor(body.byteLength / 2);
        throw new TruncatedFault(
          { ...response, body },
          body.subarray(0, Math.min(cut, Math.max(body.byteLength - 1, 0))),
        );
      }
      return response;
    };
  }
}

function decisionOf(rule: FaultRule, random: () => number): Decision {
  const id = { rule: rule.id };
  if (rule.kind === 'reset') return { ...id, kind: 'reset' };
  if (rule.kind === 'truncated') return { ...id, kind: 'truncated', bytes: rule.bytes };
  if (rule.kind === 'slow_body') return { ...id, kind: 'slow_body', bytesPerSecond: rule.bytes_per_second! };
  if (rule.kind === 'expired_token') return { ...id, kind: 'expired_token' };
  if (rule.kind === 'delay') {
    const ms = rule.delay_ms!;
    return { ...id, kind: 'delay', ms: Array.isArray(ms) ? ms[0] + random() * (ms[1] - ms[0]) : ms };
  }
  const status = rule.status!;
  const headers = rule.retry_after === undefined ? undefined : { 'retry-after': String(rule.retry_after) };
  const message = rule.message ?? REASONS[status] ?? `Status ${status}`;
  return { ...id, kind: 'answer', error: new HttpError(status, message, undefined, headers) };
}
