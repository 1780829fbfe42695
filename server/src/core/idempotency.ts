/**
 * `Idempotency-Key` on the API's POSTs (draft-ietf-httpapi-idempotency-key-header): a retry of a POST whose answer
 * was lost gets that answer again instead of writing twice.
 *
 * The key's row (the caller, the request's fingerprint) is stored in the same commit as the request's write, so a
 * write exists if and only if its key was kept, on every store, whichever process answers the retry (the
 * PostgreSQL store applies writes one at a time on the current rows, and the row is checked inside the write).
 * The answer is rendered once that commit is done (representations read the committed rows) and stored in the
 * row by the next write, while the key is still held: a retry waits for it (409) and then gets it. The database
 * lost for a moment does not lose the answer: its write is tried again for a second or so, and a commit whose
 * outcome was not confirmed (the connection cut during it) is settled by reading the key's row back, there if and
 * only if the write committed, so that the request is answered as it went. Only a process that dies between the
 * two, or a database down for longer, leaves a key whose write was made without an answer: a retry with it is a
 * 409 that says to read the resource, never a second write. A request that wrote nothing stores its answer in a
 * write of its own.
 *
 * A failed request stores nothing (draft §2.6 leaves it to the server; Stripe does the same for what it did not
 * execute): a 4xx wrote nothing and the same request gets the same 4xx again, while a 5xx (the database did not
 * answer, the disk was full) is one a retry should get past, not one to replay for a day. Its key is free again.
 *
 * While a key's first request runs, another with the key is a 409: the key is held for the request's time, across
 * processes through the store's claim (a PostgreSQL advisory lock: `postgres-claims.ts`), and in the process
 * itself for a store only it writes (JSON files, memory).
 */
import { encodeBase64Url } from '@storefront-platform/sdk/internal';
import { HttpError, validationError } from '../http/http-error.js';
import type { Call, Reply } from '../http/route.js';
import { sha256 } from '../shared/sha256.js';
import {
  type Claim,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyKeyRow,
  type Store,
  type Transaction,
} from '../store/types.js';
import type { CoreResponse } from './types.js';

/** The answer's header that tells a replay from a first answer. */
export const REPLAYED_HEADER = 'idempotent-replayed';
/** Longest key taken, in characters: a UUID is 36; room for a client's own scheme, not for a body. */
export const MAX_KEY_LENGTH = 255;
/**
 * Expired rows are removed by a write that stores a key, at most once a minute per store and this many at a time:
 * reading the rows in order costs a copy of them after each write in a store of one process, too much for every
 * write, and a minute's keys are far fewer than this.
 */
const PRUNE_AT_ONCE = 1000;
const PRUNE_INTERVAL_MS = 60_000;
/** When each store was last pruned. */
const lastPrune = new WeakMap<Store, number>();

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The key of an `Idempotency-Key` value: an sf-string (RFC 8941 §3.3.3, as the draft says:
 * `"8e03978e-40d5-43e8-bc93-6894a57f9324"`), or the bare token many clients send; a 400 for anything else or an
 * empty or overlong key.
 */
export function parseIdempotencyKey(value: string): string {
  let key = value.trim();
  if (key.startsWith('"')) {
    const match = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(key);
    if (!match) throw badKey('an sf-string is printable ASCII in double quotes, with only \\" and \\\\ escaped');
    key = match[1]!.replace(/\\(["\\])/g, '$1');
  } else if (!/^[\x21-\x7e]*$/.test(key)) throw badKey('a bare key is printable ASCII without spaces');
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) throw badKey(`a key has 1 to ${MAX_KEY_LENGTH} characters`);
  return key;
}

function badKey(why: string): HttpError {
  return new HttpError(400, `Invalid Idempotency-Key: ${why}`);
}

/**
 * Pauses between the tries of a step the database may be down a moment for: a connection it cut is replaced in
 * milliseconds, while a client's retry of the whole request would meet a key without its answer.
 */
const PAUSES_MS = [50, 250, 1000];

async function patiently<T>(step: () => Promise<T>): Promise<T> {
  for (const pause of PAUSES_MS) {
    try {
      return await step();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
  return step();
}

/** Keys held by requests of this process, per store: the hold of a store no other process writes. */
const heldHere = new WeakMap<Store, Set<string>>();

/** A key held by this request: its row as committed when the hold was taken, and the way to let go. */
interface Hold {
  row: IdempotencyKeyRow | undefined;
  release(): Promise<void>;
}

/** Holds `id` for this request; `undefined` while another request holds it. */
async function hold(store: Store, id: string): Promise<Hold | undefined> {
  if (store.claim) {
    let claim: Claim<IdempotencyKeyRow> | undefined;
    try {
      claim = await store.claim('idempotency_keys', id);
    } catch {
      throw new HttpError(503, 'Service unavailable: the database did not answer; retry', undefined, {
        'retry-after': '1',
      });
    }
    // Read under the lock: what the previous holder committed, though this process has not caught up with it.
    return claim && { row: claim.row, release: () => claim.release().catch(() => undefined) };
  }
  const held = heldHere.get(store) ?? new Set<string>();
  heldHere.set(store, held);
  if (held.has(id)) return undefined;
  held.add(id);
  return {
    row: store.get('idempotency_keys', id),
    release: async () => {
      held.delete(id);
    },
  };
}

/** The row of `id` that still counts at `now`. */
function liveRow(row: IdempotencyKeyRow | undefined, now: number): IdempotencyKeyRow | undefined {
  return row && row.expires_at > now ? row : undefined;
}

function stillRunning(): HttpError {
  return new HttpError(409, 'A request with this Idempotency-Key is still being answered: retry shortly', undefined, {
    'retry-after': '1',
  });
}

/**
 * Answers `call` once for its `Idempotency-Key` (`given`, the header's value): the stored answer when the same
 * request came with the key before, else `handle`'s, rendered by `render` once its write committed (with the key's row)
 * and stored right after. `own` gives the headers each request sets for itself (`Date`, its token's scopes, the rate
 * limit's fields as they stand): a stored answer keeps none of them, and a replay carries the replaying request's.
 */
export async function answerOnce(
  call: Call,
  given: string,
  handle: (call: Call) => Reply | Promise<Reply>,
  render: (reply: Reply) => CoreResponse,
  own: () => Record<string, string>,
): Promise<CoreResponse> {
  const key = parseIdempotencyKey(given);
  const { store, clock } = call.context;
  const { principal, request } = call;
  const read = request.body();
  let bytes: Uint8Array;
  try {
    bytes = await read;
  } catch {
    // A body that cannot be read fails the request as it would without a key (413, 400): nothing to store.
    read.catch(() => undefined);
    return render(await handle(call));
  }
  const id = encodeBase64Url(sha256(encoder.encode(`${principal.appId}\n${principal.userId}\n${key}`)));
  const fingerprint = encodeBase64Url(
    sha256(
      encoder.encode(
        `${request.method}\n${request.url.pathname}${request.url.search}\n${encodeBase64Url(sha256(bytes))}`,
      ),
    ),
  );
  const held = await hold(store, id);
  if (!held) throw stillRunning();
  try {
    const stored = liveRow(held.row, clock.now());
    if (stored) return replay(stored, fingerprint, own());
    /** Whether the key's row was committed, with the request's first write: the answer comes right after it. */
    let claimed = false;
    /** When this request's row was made: which tells it from another's, read back after an unconfirmed commit. */
    let createdAt: number | undefined;
    const claim = (tx: Transaction) => {
      const now = clock.now();
      createdAt = now;
      // Under the store's write lock, on the current rows: a request another process answered meanwhile (its
      // hold lost with its connection) wins, and this one writes nothing.
      const current = tx.get('idempotency_keys', id);
      if (liveRow(current, now)) throw stillRunning();
      if (current) tx.delete('idempotency_keys', id);
      pruneExpired(store, tx, now);
      tx.insert('idempotency_keys', {
        id,
        app_id: principal.appId,
        user_id: principal.userId,
        key,
        fingerprint,
        created_at: now,
        expires_at: now + IDEMPOTENCY_TTL_MS,
        status: 0,
        headers: {},
      });
    };
    const write = async <T>(fn: (tx: Transaction) => T): Promise<T> => {
      let made: { result: T } | undefined;
      try {
        await store.write((tx) => {
          if (!claimed) claim(tx);
          made = { result: fn(tx) };
        });
      } catch (error) {
        // Committed or not, unknown to the store: the key's row is there if and only if the write committed.
        if (claimed || !made || !(await committedAfterAll(store, id, createdAt!))) throw error;
      }
      claimed = true;
      return made!.result;
    };
    const keyed: Store = Object.create(store, { write: { value: write } });
    const buffered: Call['request'] = Object.create(request, { body: { value: () => read } });
    // A request that fails before its write stores nothing: its key is free again. (One that failed after its
    // write committed, which no route of the API does, leaves its key without an answer: see `replay`.)
    const response = render(await handle({ ...call, request: buffered, context: { ...call.context, store: keyed } }));
    // Rendered on the committed rows, then kept. A request that wrote nothing keeps its answer in a write of its own.
    // The write is made: its answer goes to the client even when the database keeps it from being stored.
    if (response.status < 400) await patiently(() => write((tx) => answer(tx, id, response, own()))).catch(() => {});
    return response;
  } finally {
    await held.release();
  }
}

/** Whether this request's row of `id`, made at `createdAt`, was committed after all (read once the store answers). */
async function committedAfterAll(store: Store, id: string, createdAt: number): Promise<boolean> {
  try {
    await patiently(async () => store.sync?.());
  } catch {
    return false;
  }
  return store.get('idempotency_keys', id)?.created_at === createdAt;
}

/** Stores `response` as the answer of the key `id`, claimed by this request, less the request's `own` headers. */
function answer(tx: Transaction, id: string, response: CoreResponse, own: Record<string, string>): void {
  const headers = { ...response.headers };
  for (const name of Object.keys(own)) delete headers[name];
  delete headers['x-request-id'];
  const { body } = response;
  const text = body === undefined ? undefined : typeof body === 'string' ? body : decoder.decode(body);
  tx.update('idempotency_keys', id, {
    status: response.status,
    headers,
    ...(text === undefined ? {} : { body: text }),
  });
}

/** The stored answer with this request's `own` headers, marked as a replay; a 422 when the key came with another request. */
function replay(stored: IdempotencyKeyRow, fingerprint: string, own: Record<string, string>): CoreResponse {
  if (stored.fingerprint !== fingerprint) {
    throw validationError(
      'Idempotency-Key',
      'it was used with another request (another method, path or body): use a new key',
    );
  }
  if (stored.status === 0) {
    // Its write committed, and the process died (or lost the database) before it kept the answer.
    throw new HttpError(
      409,
      'The first request with this Idempotency-Key made its write, but its answer was lost: read the resource',
    );
  }
  const headers = { ...stored.headers, ...own, [REPLAYED_HEADER]: 'true' };
  return stored.body === undefined
    ? { status: stored.status, headers }
    : { status: stored.status, headers, body: stored.body };
}

/** Removes expired keys from the oldest on (rows are kept in insertion order), a few per write. */
function pruneExpired(store: Store, tx: Transaction, now: number): void {
  const last = lastPrune.get(store);
  if (last !== undefined && now - last < PRUNE_INTERVAL_MS && now >= last) return;
  lastPrune.set(store, now);
  let removed = 0;
  for (const row of store.all('idempotency_keys')) {
    if (row.expires_at > now || removed === PRUNE_AT_ONCE) return;
    tx.delete('idempotency_keys', row.id);
    removed++;
  }
}
