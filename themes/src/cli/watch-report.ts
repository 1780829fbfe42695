/** How `watch` and `dev` print what the watching does: one line per event, one JSON object per event with --json. */

import { printable, printableWhole } from '../printable.js';
import { type PageProblem, problemLine } from '../theme/dev-problems.js';
import type { WatchEvent } from '../theme/watch-machine.js';
import { describeError } from './describe-error.js';
import type { Output } from './output.js';
import { plural, printLinks, themeName } from './report.js';

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

/** The printer of a watch's events on `output`. */
export function watchPrinter(output: Output): (event: WatchEvent) => void {
  let unreachable = false;
  return (event: WatchEvent) => {
    const at = output.paint('dim', `[${clock()}]`);
    switch (event.type) {
      case 'checked':
        unreachable = false;
        return;
      case 'unchanged':
        // Nothing was sent: nothing to say.
        return;
      case 'unreachable': {
        // Said once while it lasts: the next interval asks again anyway.
        if (unreachable) return;
        unreachable = true;
        const { message } = describeError(event.error);
        output.line(
          `${at} ${output.paint('yellow', 'cannot check the server')}: ${message} (asked again every interval)`,
        );
        output.document({ event: 'unreachable', message });
        return;
      }
      case 'pulled':
        output.line(
          `${at} ${output.paint('cyan', 'pulled')}   ${printable(event.file.path)} (${event.file.action} on the server)`,
        );
        output.document({ event: 'pulled', path: event.file.path, action: event.file.action });
        return;
      case 'ready': {
        const { workspace, preview, unpushed } = event;
        output.line(`Watching ${printableWhole(workspace.dir)} for ${themeName(workspace.manifest)} (Ctrl-C to stop)`);
        output.line(`Preview: ${preview}`);
        if (unpushed) output.line(`${plural(unpushed, 'change')} made before watching not pushed yet: run push`);
        printLinks(output, workspace.local.links);
        output.document({ event: 'ready', dir: workspace.dir, preview, unpushed, links: workspace.local.links });
        return;
      }
      case 'ignored':
        output.line(`${at} ${output.paint('dim', 'ignored')}  ${printableWhole(event.reason)}`);
        output.document({ event: 'ignored', path: event.path, message: event.reason });
        return;
      case 'pushed':
        output.line(
          `${at} ${output.paint('green', 'pushed')}   ${printable(event.file.path)} (${event.file.action}, ${Math.round(event.ms)} ms)`,
        );
        output.document({
          event: 'pushed',
          path: event.file.path,
          action: event.file.action,
          ms: Math.round(event.ms),
        });
        return;
      case 'conflict': {
        // A conflict found by a look at the server says what to do itself; one refused on a save gets the hint.
        const hint = event.file.message?.includes('(') ? '' : ' (pull --merge, then save again)';
        output.line(
          `${at} ${output.paint('yellow', 'conflict')} ${printable(event.file.path)}: ${printableWhole(event.file.message ?? '')}${hint}`,
        );
        output.document({ event: 'conflict', path: event.file.path, message: event.file.message });
        return;
      }
      case 'retrying': {
        const { message } = describeError(event.error);
        output.line(
          `${at} ${output.paint('yellow', 'retrying')} ${printable(event.path)} in ${seconds(event.delay)}: ${message}`,
        );
        output.document({ event: 'retrying', path: event.path, attempt: event.attempt, delay: event.delay, message });
        return;
      }
      case 'failed': {
        const { message } = describeError(event.error);
        output.line(
          `${at} ${output.paint('red', 'failed')}   ${printable(event.path)}: ${message} (${outlook(event)})`,
        );
        const { path, kept, waiting, retryIn } = event;
        output.document({ event: 'failed', path, message, kept, waiting, retryIn });
      }
    }
  };
}

/**
 * Says in the terminal what `dev` shows over the page from `check`, each time that changed: one line per error, or
 * that none is left. Refusals are not repeated here: the watch's own `failed` and `conflict` lines said them.
 */
export function printCheckErrors(output: Output, errors: readonly PageProblem[]): void {
  const at = output.paint('dim', `[${clock()}]`);
  if (!errors.length) output.line(`${at} ${output.paint('green', 'fixed')}    no check errors left`);
  // The folder's names and what the check quotes of its files (a missing reference) are not the terminal's to act on.
  for (const error of errors) {
    output.line(`${at} ${output.paint('red', 'error')}    ${printableWhole(problemLine(error))}`);
  }
  output.document({ event: 'check', errors });
}
