/**
 * The `slow_body` fault: the answer's headers at once, then its body a few bytes at a time, at `bytes_per_second`
 * on average: one chunk of a tenth of a second's bytes (at least one byte) every tenth of a second or so, so that a
 * body of `n` bytes takes about `n / bytes_per_second` seconds. Real time, not the sandbox's clock: it tests a
 * client's timeouts, which run on real time too.
 */
import type { CoreResponse } from '../core/types.js';
import { pause } from '../shared/pause.js';
import { ShellFault } from './shell-fault.js';

/** Thrown into the shell with the core's answer, whose body the shell sends at `bytesPerSecond`. */
export class SlowBodyFault extends ShellFault {
  readonly status: number;

  constructor(
    readonly response: CoreResponse & { body: Uint8Array },
    readonly bytesPerSecond: number,
  ) {
    super('A fault rule slowed the answer down');
    this.name = 'SlowBodyFault';
    this.status = response.status;
  }
}

/** The chunks of `body`, each after its pause; stops early once `signal` aborts (the client went away). */
export async function* trickle(
  body: Uint8Array,
  bytesPerSecond: number,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  const chunk = Math.max(1, Math.floor(bytesPerSecond / 10));
  const everyMs = (chunk * 1000) / bytesPerSecond;
  for (let at = 0; at < body.byteLength; at += chunk) {
    await pause(everyMs, signal);
    if (signal?.aborted) return;
    yield body.subarray(at, at + chunk);
  }
}

/**
 * The answer of `fault` as a fetch `Response` (the MSW mock's): its headers now, its body as a stream that
 * trickles, and that errors with the request's abort reason once the request is aborted, as a real `fetch`'s body
 * does (the mock's `Response` is not tied to the request's signal otherwise).
 */
export function slowBodyResponse(fault: SlowBodyFault, signal: AbortSignal): Response {
  const chunks = trickle(fault.response.body, fault.bytesPerSecond, signal);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (signal.aborted) controller.error(signal.reason);
      else if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, { status: fault.response.status, headers: fault.response.headers });
}
