/** A control refused: a bad argument (400) or a snapshot that does not exist (404). Nothing was changed. */
export class SandboxError extends Error {
  constructor(
    message: string,
    /** The HTTP status the control API answers it with. */
    readonly status: 400 | 404,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}
