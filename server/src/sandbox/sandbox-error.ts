/**
 * A control refused: a bad argument (400) or a snapshot that does not exist (404); through the client, any answer
 * of the control API that is not a success (401: a wrong token). Nothing was changed.
 */
export class SandboxError extends Error {
  constructor(
    message: string,
    /** The HTTP status the control API answers it with. */
    readonly status: number,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}
