/**
 * The session's history kept for the tab in `sessionStorage`, so that a reload (or the round trip of signing in
 * again) keeps it: each answer as its data (the document, the status, headers and body of a failure), made into
 * entities and the SDK's errors again when read. The largest documents go first when storage is full.
 */
import {
  type Entity,
  ForbiddenError,
  type HalResource,
  HttpError,
  NotFoundError,
  PreconditionFailedError,
  UnauthorizedError,
  ValidationError,
} from '@storefront-platform/sdk';
import type { Answer, Outcome } from './api.js';
import { isChain, type Step } from './follow-chain.js';

/** One answer of the session, kept to be shown again. */
export interface Entry {
  id: number;
  outcome: Outcome;
  /** From the call to its result, in ms. */
  total: number;
  /** The way that reached it. */
  steps: readonly Step[];
  /** What was asked for, when no answer came. */
  method: string;
  url: string;
  at: Date;
}

const KEY = 'storefront-explorer:history';

/** An outcome as data. */
type Stored =
  | { kind: 'entity'; document: HalResource; url: string; revalidated: boolean }
  | { kind: 'empty' }
  | { kind: 'other'; value: unknown }
  | {
      kind: 'error';
      http?: { method: string; url: string; status: number; headers: Record<string, string>; body: unknown };
      message: string;
    };

interface StoredEntry {
  id: number;
  total: number;
  steps: readonly Step[];
  method: string;
  url: string;
  at: string;
  answer?: Answer;
  outcome: Stored;
}

function stored(entry: Entry): StoredEntry {
  const { outcome } = entry;
  let data: Stored;
  if (outcome.kind === 'entity') {
    const url = outcome.entity.response?.url ?? outcome.answer?.url ?? entry.url;
    data = { kind: 'entity', document: outcome.entity.toJSON(), url, revalidated: outcome.revalidated };
  } else if (outcome.kind === 'error') {
    const error = outcome.error;
    const http =
      error instanceof HttpError
        ? { method: error.method, url: error.url, status: error.status, headers: error.headers, body: error.body }
        : undefined;
    data = {
      kind: 'error',
      ...(http ? { http } : {}),
      message: error instanceof Error ? error.message : String(error),
    };
  } else data = outcome.kind === 'empty' ? { kind: 'empty' } : { kind: 'other', value: outcome.value };
  const { id, total, steps, method, url, at } = entry;
  return {
    id,
    total,
    steps,
    method,
    url,
    at: at.toISOString(),
    ...(outcome.answer ? { answer: outcome.answer } : {}),
    outcome: data,
  };
}

const ERRORS: Record<number, typeof HttpError> = {
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  412: PreconditionFailedError,
  422: ValidationError,
};

/** Keeps `entries` for the tab; when they do not fit, without the oldest until they do. */
export function saveHistory(entries: readonly Entry[]): void {
  const list = entries.map(stored);
  while (list.length) {
    try {
      sessionStorage.setItem(KEY, JSON.stringify(list));
      return;
    } catch {
      list.shift();
    }
  }
  sessionStorage.removeItem(KEY);
}

/** Forgets the kept history (signing out). */
export function forgetHistory(): void {
  sessionStorage.removeItem(KEY);
}

/** The kept history, its entities made with `restore` (the session's client); none when there is none or it is unreadable. */
export function loadHistory(restore: (document: HalResource, url: string) => Entity): Entry[] {
  let list: StoredEntry[];
  try {
    list = JSON.parse(sessionStorage.getItem(KEY) ?? '[]') as StoredEntry[];
    if (!Array.isArray(list)) return [];
  } catch {
    return [];
  }
  const entries: Entry[] = [];
  for (const item of list) {
    if (!item || typeof item.id !== 'number' || !isChain(item.steps) || !item.outcome) continue;
    const answer = item.answer ? { answer: item.answer } : {};
    const data = item.outcome;
    let outcome: Outcome;
    if (data.kind === 'entity') {
      outcome = { kind: 'entity', entity: restore(data.document, data.url), revalidated: data.revalidated, ...answer };
    } else if (data.kind === 'error') {
      const Type = data.http ? (ERRORS[data.http.status] ?? HttpError) : undefined;
      const error = Type && data.http ? new Type(data.http) : new Error(data.message);
      outcome = { kind: 'error', error, ...answer };
    } else if (data.kind === 'empty') outcome = { kind: 'empty', ...answer };
    else outcome = { kind: 'other', value: data.value, ...answer };
    const { id, total, steps, method, url } = item;
    entries.push({ id, total, steps, method, url, at: new Date(item.at), outcome });
  }
  return entries;
}
