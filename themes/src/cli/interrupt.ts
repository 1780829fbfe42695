/**
 * Ctrl-C and SIGTERM while a command writes several files: rather than dying between two requests with nothing
 * said, the first signal lets the requests under way finish and starts no more, so that the command can record
 * and report exactly what it did; a second one aborts those requests too, for a server that no longer answers; a
 * third has its default effect (the process ends), for whatever else still holds the command up.
 */
import { CliError, ExitCode } from '../errors.js';
import type { Output } from './output.js';

/** The reason of a stop asked by a signal. */
export class InterruptedError extends CliError {
  constructor(readonly signal: NodeJS.Signals) {
    super(`interrupted (${signal})`, ExitCode.interrupted);
    this.name = 'InterruptedError';
  }
}

/** The signals of an interruption, while it is listened to. */
export interface Interruption {
  /** Aborted at the first signal: start no further request. */
  stop: AbortSignal;
  /** Aborted at the second: abort the requests under way. */
  abort: AbortSignal;
  /** Stops listening: the signals have their default effect again (as they do after a third). */
  dispose(): void;
}

/** Listens to SIGINT and SIGTERM until disposed. */
export function listenForInterruption(output: Output): Interruption {
  const [stop, abort] = [new AbortController(), new AbortController()];
  const dispose = () => process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  const onSignal = (signal: NodeJS.Signals) => {
    const reason = new InterruptedError(signal);
    if (!stop.signal.aborted) {
      output.note(`Stopping (${signal}): the requests under way finish; press Ctrl-C again to abort them`);
      stop.abort(reason);
    } else if (!abort.signal.aborted) abort.abort(reason);
    else {
      // A third: whatever still holds the command up, the person wants out now. The signal again, unheard.
      dispose();
      process.kill(process.pid, signal);
    }
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  return { stop: stop.signal, abort: abort.signal, dispose };
}
