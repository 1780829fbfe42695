/**
 * What a fault rule asks of the shell rather than of the core: the answer goes out in a way a `CoreResponse`
 * cannot say (a cut connection, a body cut short, a body that trickles). Thrown through the journal, which records
 * it, to the shell (the Express shell's socket, the MSW mock's `Response`), which carries it out.
 */
export abstract class ShellFault extends Error {
  /** The status whose headers the client gets; null: none, the connection is cut before any answer. */
  abstract readonly status: number | null;
}
