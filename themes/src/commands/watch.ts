import { storedClient } from '../auth/stored-auth.js';
import { type Command, folderOf } from '../cli/command.js';
import { describeError } from '../cli/describe-error.js';
import { plural, printLinks, themeName } from '../cli/report.js';
import { ExitCode, UsageError } from '../errors.js';
import { DEFAULT_DEBOUNCE_MS, watchTheme } from '../theme/watch.js';
import type { WatchEvent } from '../theme/watch-machine.js';

const clock = () => new Date().toTimeString().slice(0, 8);

/** A wait in seconds, to a tenth. */
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** What becomes of a file that was not sent. */
function outlook(event: Extract<WatchEvent, { type: 'failed' }>): string {
  if (!event.kept) return 'it is sent again when saved';
  const others = event.waiting - 1;
  const kept = others ? `kept with ${plural(others, 'other file')}` : 'kept';
  return event.retryIn === undefined
    ? `${kept}: sent with the next save, or run push`
    : `${kept}: sent again in ${seconds(event.retryIn)} or with the next save`;
}

export const watchCommand: Command = {
  name: 'watch',
  summary: 'push each saved file to the development theme',
  args: '[dir]',
  description: [
    'Watches the folder (default: the working directory), which must hold the development theme (see dev), and',
    'pushes each file saved, added or deleted there within a second, one request per file. On a network or server',
    "failure the client retries a template's update or a deletion twice (0.3 and 0.6 s later, or when the server's",
    'Retry-After says), and sends a new template or an asset once; a file still not sent is kept, and goes with the',
    'next save or on its own 30 s later. A file changed on the server meanwhile is reported as a conflict and not',
    'sent. Prints the preview address first.',
    'Symbolic links are ignored, never followed: nothing they point to is sent, and a file replaced by one is not',
    'deleted. Stops on Ctrl-C, listing the files not sent. With --json, prints one JSON object per event.',
  ].join('\n'),
  options: {
    debounce: {
      type: 'string',
      value: 'MS',
      description: `quiet time after a file's last write before it is sent, in ms (default ${DEFAULT_DEBOUNCE_MS})`,
    },
  },
  maxArgs: 1,
  async run(context) {
    const { output, store, values } = context;
    const given = values.debounce;
    // Up to a minute: past it a save would look lost.
    if (given !== undefined && !(typeof given === 'string' && /^\d+$/.test(given) && Number(given) <= 60_000)) {
      throw new UsageError(`--debounce must be a whole number of milliseconds up to 60000, got "${given}"`);
    }
    const debounce = given === undefined ? DEFAULT_DEBOUNCE_MS : Number(given);
    const { client } = await storedClient(store);
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
    const print = (event: WatchEvent) => {
      const at = output.paint('dim', `[${clock()}]`);
      switch (event.type) {
        case 'ready': {
          const { workspace, preview, unpushed } = event;
          output.line(`Watching ${workspace.dir} for ${themeName(workspace.manifest)} (Ctrl-C to stop)`);
          output.line(`Preview: ${preview}`);
          if (unpushed) output.line(`${plural(unpushed, 'change')} made before watching not pushed yet: run push`);
          printLinks(output, workspace.local.links);
          output.document({ event: 'ready', dir: workspace.dir, preview, unpushed, links: workspace.local.links });
          return;
        }
        case 'ignored':
          output.line(`${at} ${output.paint('dim', 'ignored')}  ${event.reason}`);
          output.document({ event: 'ignored', path: event.path, message: event.reason });
          return;
        case 'pushed':
          output.line(
            `${at} ${output.paint('green', 'pushed')}   ${event.file.path} (${event.file.action}, ${Math.round(event.ms)} ms)`,
          );
          output.document({
            event: 'pushed',
            path: event.file.path,
            action: event.file.action,
            ms: Math.round(event.ms),
          });
          return;
        case 'conflict':
          output.line(
            `${at} ${output.paint('yellow', 'conflict')} ${event.file.path}: ${event.file.message} (pull, merge, save again)`,
          );
          output.document({ event: 'conflict', path: event.file.path, message: event.file.message });
          return;
        case 'retrying': {
          const { message } = describeError(event.error);
          output.line(
            `${at} ${output.paint('yellow', 'retrying')} ${event.path} in ${seconds(event.delay)}: ${message}`,
          );
          output.document({ event: 'retrying', path: event.path, attempt: event.attempt, delay: event.delay, message });
          return;
        }
        case 'failed': {
          const { message } = describeError(event.error);
          output.line(`${at} ${output.paint('red', 'failed')}   ${event.path}: ${message} (${outlook(event)})`);
          const { path, kept, waiting, retryIn } = event;
          output.document({ event: 'failed', path, message, kept, waiting, retryIn });
        }
      }
    };
    let unsent: string[];
    try {
      ({ unsent } = await watchTheme({
        client,
        dir: folderOf(context),
        debounce,
        onEvent: print,
        signal: stop.signal,
      }));
    } finally {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    }
    output.line(unsent.length ? `Stopped watching; not pushed: ${unsent.join(', ')} (run push)` : 'Stopped watching');
    output.document({ event: 'stopped', unsent });
    return ExitCode.ok;
  },
};
