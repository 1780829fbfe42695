/** Conditional writes (RFC 9110 §13.2.2) decided where no other write can come between the check and the change. */
import { assertPreconditions, type Validators } from '../http/conditional.js';
import type { Call, Reply } from '../http/route.js';
import type { Transaction } from '../store/types.js';

/**
 * Runs `change` in the store's write queue once the request's preconditions hold against the target as the queue
 * sees it: `read` looks the target up again there (a 404 if it has gone), `validators` gives what is compared. A
 * handler may check the same preconditions before it reads the body, so that a stale client gets its 412 rather
 * than a 422; this check is the one that counts.
 */
export function guardedWrite<Row, T>(
  call: Call,
  read: () => Row,
  validators: (call: Call, row: Row) => Validators,
  change: (tx: Transaction, current: Row) => T,
): Promise<T> {
  return call.context.store.write((tx) => {
    const current = read();
    preconditionsOn(call, validators)(current);
    return change(tx, current);
  });
}

/**
 * The preconditions of a write as a check of the row its target holds when the write is decided (`undefined`: none,
 * so that `If-Match` fails and `If-None-Match: *` holds). A POST that creates or replaces by name (a template or
 * asset by file name, the shop's development theme) targets what that name holds, as a PUT to it would (RFC 9110
 * §13.2.2): its save function calls this with the row it found, before it changes anything.
 */
export function preconditionsOn<Row>(
  call: Call,
  validators: (call: Call, row: Row) => Validators,
): (current: Row | undefined) => void {
  return (current) =>
    assertPreconditions(call.request.headers, current === undefined ? undefined : validators(call, current));
}

/**
 * A DELETE of the target by {@link guardedWrite}: `remove` deletes `current` (with what goes with it: its event) at
 * the clock's `now`; the answer is a 204.
 */
export async function guardedDelete<Row>(
  call: Call,
  read: () => Row,
  validators: (call: Call, row: Row) => Validators,
  remove: (tx: Transaction, current: Row, now: number) => void,
): Promise<Reply> {
  await guardedWrite(call, read, validators, (tx, row) => remove(tx, row, call.context.clock.now()));
  return { status: 204 };
}
