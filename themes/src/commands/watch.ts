import { storedClient } from '../auth/stored-auth.js';
import { type Command, type CommandContext, FILTER_OPTIONS, folderOf, type OptionSpec } from '../cli/command.js';
import { filterOf } from '../cli/filter.js';
import { watchPrinter } from '../cli/watch-report.js';
import { ExitCode, UsageError } from '../errors.js';
import { DEFAULT_DEBOUNCE_MS, DEFAULT_INTERVAL_MS, watchTheme } from '../theme/watch.js';
import type { WatchEvent } from '../theme/watch-machine.js';

/** The options `watch` and `dev` share. */
export const WATCH_OPTIONS: Record<string, OptionSpec> = {
  debounce: {
    type: 'string',
    value: 'MS',
    description: `quiet time after a file's last write before it is sent, in ms (default ${DEFAULT_DEBOUNCE_MS})`,
  },
  interval: {
    type: 'string',
    value: 'S',
    description: `how often to bring the server's changes, in seconds (default ${DEFAULT_INTERVAL_MS / 1000}; 0: never)`,
  },
  ...FILTER_OPTIONS,
};

export const watchCommand: Command = {
  name: 'watch',
  summary: "push each saved file to the development theme, and bring the server's changes",
  args: '[dir]',
  description: [
    'Watches the folder (default: the working directory), which must hold the development theme (see dev), and',
    'pushes each file saved, added or deleted there within a second, one request per file. On a network or server',
    "failure the client retries a template's update or a deletion twice (0.3 and 0.6 s later, or when the server's",
    'Retry-After says), and sends a new template or an asset once; a file still not sent is kept, and goes with the',
    'next save or on its own 30 s later. A file changed on the server meanwhile is reported as a conflict and not',
    'sent. Prints the preview address first.',
    'The other way too: every --interval seconds the theme is read again with its ETag (one 304 while nothing',
    'changed there); a file changed on the server is written into the folder, unless it changed here too: that is',
    'reported as a conflict and left alone (pull --merge, or push --force). Files listed in .storefrontignore or',
    'left out by --only/--ignore are neither sent nor brought.',
    'Symbolic links are ignored, never followed: nothing they point to is sent, and a file replaced by one is not',
    'deleted. Stops on Ctrl-C, listing the files not sent and the conflicts left. With --json, prints one JSON',
    'object per event.',
  ].join('\n'),
  options: WATCH_OPTIONS,
  maxArgs: 1,
  async run(context) {
    return watchUntilStopped(context, folderOf(context));
  },
};

/** `--interval` in ms: seconds, to a tenth, up to an hour; 0 never asks the server. */
export function intervalOf(given: unknown): number {
  if (given === undefined) return DEFAULT_INTERVAL_MS;
  const seconds = typeof given === 'string' && /^\d+(\.\d+)?$/.test(given) ? Number(given) : Number.NaN;
  if (!(seconds === 0 || (seconds >= 0.1 && seconds <= 3600))) {
    throw new UsageError(`--interval must be a number of seconds from 0.1 to 3600 (0: never), got "${given}"`);
  }
  return Math.round(seconds * 1000);
}

/**
 * Watches `dir` with the options of the command line until Ctrl-C or SIGTERM, printing each event (and passing it
 * to `also`).
 */
export async function watchUntilStopped(
  context: CommandContext,
  dir: string,
  also?: (event: WatchEvent) => void,
): Promise<ExitCode> {
  const { output, store, values } = context;
  const interval = intervalOf(values.interval);
  const given = values.debounce;
  // Up to a minute: past it a save would look lost.
  if (given !== undefined && !(typeof given === 'string' && /^\d+$/.test(given) && Number(given) <= 60_000)) {
    throw new UsageError(`--debounce must be a whole number of milliseconds up to 60000, got "${given}"`);
  }
  const debounce = given === undefined ? DEFAULT_DEBOUNCE_MS : Number(given);
  const { client } = await storedClient(store);
  const filter = await filterOf(context, dir);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  const print = watchPrinter(output);
  let unsent: string[];
  let conflicts: string[];
  try {
    ({ unsent, conflicts } = await watchTheme({
      client,
      dir,
      filter,
      interval,
      debounce,
      onEvent: (event) => {
        print(event);
        also?.(event);
      },
      signal: stop.signal,
    }));
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
  const left = [
    ...(unsent.length ? [`not pushed: ${unsent.join(', ')} (run push)`] : []),
    ...(conflicts.length ? [`conflicts: ${conflicts.join(', ')} (pull --merge, or push --force)`] : []),
  ];
  output.line(left.length ? `Stopped watching; ${left.join('; ')}` : 'Stopped watching');
  output.document({ event: 'stopped', unsent, conflicts });
  // Stopping is the normal end of a watch, whatever it left: the list says it, the exit code stays 0.
  return ExitCode.ok;
}
