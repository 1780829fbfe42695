/**
 * Thrown by `CoreRequest.body()` when the client closed the connection before the body's end. Nobody is left to
 * read the answer, and anyone can cause it, so the core answers it as bad input (400) without logging: the
 * shell's request log says `aborted` in its one line.
 */
export class BodyAbortedError extends Error {
  constructor(options?: ErrorOptions) {
    super('The client closed the connection before the end of the request body', options);
    this.name = 'BodyAbortedError';
  }
}
