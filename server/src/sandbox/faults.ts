/**
 * Fault rules: answers a test puts in front of the core (an error status, a delay, a connection cut), for
 * matching requests, a number of times, with a probability drawn from a seeded generator. One set of rules per
 * sandbox, kept in its store (so that every process of a fleet applies them), decided here for both doors (the
 * Express shell and the MSW mock).
 */
import type { CoreHandler, CoreResponse } from '../core/types.js';
import { StoreUnavailableError } from '../store/errors.js';
import type { FaultRuleRow, Store } from '../store/types.js';
import { failure } from './answers.js';
import { OwnWrites } from './own-writes.js';
import { SandboxError } from './sandbox-error.js';

/** What a fault does to a request it hits. */
export type FaultKind = 'status' | 'delay' | 'reset' | 'truncated';

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
  /** How many hits, then the rule is spent. Default: no limit. */
  times?: number;
  /** The chance (0 to 1) that a matching request is hit. Default 1. */
  probability?: number;
  /** Seeds the rule's generator (probability and delay draws): the same seed, the same hits. Default: random. */
  seed?: number;
}

/** A rule as listed: what was given, with its defaults, its id and what it did so far. */
export interface FaultRule extends Required<Pick<FaultRuleInput, 'kind' | 'probability' | 'seed'>> {
  id: string;
  method: string | null;
  path: string | null;
  status?: number;
  retry_after?: number;
  message?: string;
  delay_ms?: number | [number, number];
  bytes?: number;
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
 * Thrown into the shell for a `reset` fault: the Express shell destroys the socket, the MSW mock answers
 * `HttpResponse.error()` (`fetch` rejects with a `TypeError`).
 */
export class ConnectionResetFault extends Error {
  constructor() {
    super('A fault rule reset the connection');
    this.name = 'ConnectionResetFault';
  }
}

/**
 * Thrown into the shell for a `truncated` fault, with the core's answer: the shell sends its headers (the whole
 * body's `Content-Length`) and the first `bytes` of its body, then ends the connection.
 */
export class TruncatedFault extends Error {
  constructor(
    readonly response: CoreResponse,
    readonly bytes: Uint8Array,
  ) {
    super('A fault rule cut the answer short');
    this.name = 'TruncatedFault';
  }
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

function patternOf(path: string): RegExp {
  if (!path.startsWith('/')) refuse(`A fault's path must start with "/", got ${JSON.stringify(path)}`);
  const source = path
    .split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** Checks a rule as given (either door), or throws a {@link SandboxError} 400 saying what is wrong. */
function checked(input: unknown, id: string): FaultRule {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) refuse('A fault rule is an object');
  const given = input as Record<string, unknown>;
  const known = [
    'kind',
    'method',
    'path',
    'status',
    'retry_after',
    'message',
    'delay_ms',
    'bytes',
    'times',
    'probability',
  ];
  for (const key of Object.keys(given)) {
    if (!known.includes(key) && key !== 'seed') refuse(`A fault rule has no field "${key}"`);
  }
  const { kind, method, path, times, probability, seed } = given;
  if (kind !== 'status' && kind !== 'delay' && kind !== 'reset' && kind !== 'truncated') {
    refuse(`A fault's kind is "status", "delay", "reset" or "truncated", got ${JSON.stringify(kind)}`);
  }
  if (method !== undefined && (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method))) {
    refuse(`A fault's method is an HTTP method, got ${JSON.stringify(method)}`);
  }
  if (path !== undefined && typeof path !== 'string') refuse(`A fault's path is a string, got ${JSON.stringify(path)}`);
  if (path !== undefined) patternOf(path as string);
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
    times: (times as number | undefined) ?? null,
    probability: (probability as number | undefined) ?? 1,
    seed: (seed as number | undefined) ?? Math.floor(Math.random() * 2 ** 32),
    hits: 0,
  };
  const only = (fields: string[]) => {
    for (const field of ['status', 'retry_after', 'message', 'delay_ms', 'bytes']) {
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
      if (typeof given.message !== 'string') refuse(`"message" is a string, got ${JSON.stringify(given.message)}`);
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
  } else {
    only([]);
  }
  return rule;
}

/** What the rules decided for one request. */
type Decision =
  | { kind: 'answer'; response: CoreResponse }
  | { kind: 'delay'; ms: number }
  | { kind: 'reset' }
  | { kind: 'truncated'; bytes: number | undefined };

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
  /** Compiled paths, by path. */
  private readonly patterns = new Map<string, RegExp>();
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
    if (row.method !== null && row.method !== method) return false;
    if (row.path === null) return true;
    let pattern = this.patterns.get(row.path);
    if (!pattern) {
      pattern = patternOf(row.path);
      this.patterns.set(row.path, pattern);
    }
    return pattern.test(path);
  }

  /**
   * The first rule that hits a request of `method` at `path`: each matching rule not spent draws once from its
   * generator (when its probability is below 1), so that a rule's hits depend only on its seed and the requests
   * it matched. No rule matching, nothing is written; otherwise one write decides on the rules as committed.
   */
  async decide(method: string, path: string): Promise<Decision | undefined> {
    // A rule this process added or cleared a moment ago applies to the requests after it.
    if (this.own.pending) await this.own.idle();
    const matching = this.store.all('fault_rules').filter((row) => this.matches(row, method, path));
    if (matching.length === 0) return undefined;
    return this.store.write((tx) => {
      for (const { id } of matching) {
        const row = tx.get('fault_rules', id);
        if (!row || (row.times !== null && row.times <= 0)) continue;
        let draws = row.draws;
        const random = () => drawAt(row.seed, draws++);
        if (row.probability < 1 && random() >= row.probability) {
          tx.update('fault_rules', id, { draws });
          continue;
        }
        const decision = decisionOf(ruleOf(row), random);
        tx.update('fault_rules', id, { draws, hits: row.hits + 1, times: row.times === null ? null : row.times - 1 });
        return decision;
      }
      return undefined;
    });
  }

  /** `handle`, with the rules applied in front of it. */
  around(handle: CoreHandler): CoreHandler {
    return async (request) => {
      let decision: Decision | undefined;
      try {
        // Rules another process added or spent: caught up with first, which the core then need not do again.
        const catchingUp = this.store.sync?.();
        if (catchingUp) {
          await catchingUp;
          request.caughtUp = true;
        }
        decision = await this.decide(request.method, request.url.pathname);
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        console.error(`storefront-server: ${request.method} ${request.url.pathname} 503: ${error.message}`);
        return failure(503, 'Service unavailable: the database did not answer; try again', { 'retry-after': '1' });
      }
      if (decision?.kind === 'answer') return decision.response;
      if (decision?.kind === 'reset') throw new ConnectionResetFault();
      if (decision?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, decision.ms));
      const response = await handle(request);
      if (decision?.kind === 'truncated') {
        const body =
          typeof response.body === 'string' ? encoder.encode(response.body) : (response.body ?? new Uint8Array(0));
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
  if (rule.kind === 'reset') return { kind: 'reset' };
  if (rule.kind === 'truncated') return { kind: 'truncated', bytes: rule.bytes };
  if (rule.kind === 'delay') {
    const ms = rule.delay_ms!;
    return { kind: 'delay', ms: Array.isArray(ms) ? ms[0] + random() * (ms[1] - ms[0]) : ms };
  }
  const status = rule.status!;
  const headers = rule.retry_after === undefined ? undefined : { 'retry-after': String(rule.retry_after) };
  return { kind: 'answer', response: failure(status, rule.message ?? REASONS[status] ?? `Status ${status}`, headers) };
}
