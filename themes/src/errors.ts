/**
 * The exit codes of `storefront-themes`, documented in its help and in docs/themes-cli.md, and the errors that
 * carry them. Scripts branch on the code, people read the message: one line, no stack.
 */

/** What the process exits with. */
export const ExitCode = {
  ok: 0,
  /** Something failed: the server refused, could not be reached, a file could not be written. */
  failure: 1,
  /** The command line is wrong: an unknown flag, a missing argument, a folder that cannot be used. */
  usage: 2,
  /** Files changed both locally and on the server were left alone. */
  conflicts: 3,
  /**
   * A push or publish was cut short (Ctrl-C, SIGTERM, the server lost midway): the theme holds part of it, the
   * output says which part, and running the command again finishes it.
   */
  interrupted: 4,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure whose message is fit to show as it is, and the exit code it ends the command with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.failure,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A wrong command line, or a folder or answer the command cannot work with: exit code 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.usage);
    this.name = 'UsageError';
  }
}
