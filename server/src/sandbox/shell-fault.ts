import type { CoreResponse } from '../core/types.js';

/**
 * What a fault rule asks of the shell rather than of the core: the answer goes out in a way a `CoreResponse`
 * cannot say (a cut connection, a body cut short, a body that trickles). Thrown through the journal, which records
 * it, to the shell (the Express shell's socket, the MSW mock's `Response`), which carries it out.
 */
export abstract class ShellFault extends Error {
  /** The status whose headers the client gets; null: none, the connection is cut before any answer. */
  abstract readonly status: number | null;
}

/**
 * Thrown into the shell for a `reset` fault: the Express shell destroys the socket, the MSW mock answers
 * `HttpResponse.error()` (`fetch` rejects with a `TypeError`).
 */
export class ConnectionResetFault extends ShellFault {
  readonly status = null;

  constructor() {
    super('A fault rule reset the connection');
    this.name = 'ConnectionResetFault';
  }
}

/**
 * Thrown into the shell for a `truncated` fault, with the core's answer: the shell sends its headers (the whole
 * body's `Content-Length`) and the first `bytes` of its body, then ends the connection.
 */
export class TruncatedFault extends ShellFault {
  readonly status: number;

  constructor(
    readonly response: CoreResponse,
    readonly bytes: Uint8Array,
  ) {
    super('A fault rule cut the answer short');
    this.name = 'TruncatedFault';
    this.status = response.status;
  }
}
