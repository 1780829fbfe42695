/** A publish cut short: what it made and what it did not, for the person to be told and the next run to finish. */
import { CliError, ExitCode } from '../errors.js';
import type { PublishChange } from './publish-plan.js';
import type { FileResult } from './results.js';

/** A change a cut publish did not make. */
export interface UnfinishedChange extends PublishChange {
  /** Its request went without an answer: it may have reached production (the next publish reads which). */
  sent: boolean;
}

/**
 * Thrown by `applyPublish` when it stops before every change had its answer: the network or the server failed
 * (the `cause`), or its `stop` signal was aborted (Ctrl-C, SIGTERM: the signal's reason). Production then holds
 * part of the plan; planning and applying again finishes it.
 */
export class PublishCutError extends CliError {
  constructor(
    /** The changes answered before the cut (made, conflicts, refusals). */
    readonly files: FileResult[],
    /** The changes not made, in the plan's order of paths. */
    readonly unfinished: UnfinishedChange[],
    cause: unknown,
  ) {
    const total = files.length + unfinished.length;
    super(`publishing was cut short after ${files.length} of ${total} changes`, ExitCode.interrupted);
    this.name = 'PublishCutError';
    this.cause = cause;
  }
}
