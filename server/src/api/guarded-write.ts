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
    assertPreconditions(call.request.headers, validators(call, current));
    return change(tx, current);
  });
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
