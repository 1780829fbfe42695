/** What `pull` and `dev` print after pulling. */
import type { Output } from '../cli/output.js';
import { conflictHint, countsOf, exitCodeOf, plural, printFiles, themeJson, themeName } from '../cli/report.js';
import type { ExitCode } from '../errors.js';
import { printableWhole } from '../printable.js';
import type { PullResult } from '../theme/pull.js';
import type { FileResult } from '../theme/results.js';

/**
 * Whether `file` is a conflict `pull --merge` wrote with markers (theme/pull.ts's `mergeOne`): the merge is done
 * and the server's version is its base, so editing the markers and pushing resolves it, where merging again
 * cannot.
 */
const markedByMerge = (file: FileResult) =>
  file.action === 'conflict' && file.message?.startsWith('merged with conflict markers') === true;

export function reportPull(output: Output, result: PullResult, barShown: boolean, extra: object = {}): ExitCode {
  const { files, workspace } = result;
  printFiles(output, files, { quiet: barShown });
  const written = files.filter((f) => f.action !== 'conflict' && f.action !== 'failed').length;
  const summary = written || files.length ? countsOf(files) : 'already up to date';
  output.line(`Pulled ${themeName(workspace.manifest)} into ${printableWhole(workspace.dir)}: ${summary}`);
  const unpushed = result.unpushed.length;
  if (unpushed) output.line(`${plural(unpushed, 'change')} of this folder not pushed yet (see status)`);
  const marked = files.filter(markedByMerge);
  if (marked.length) {
    output.line(
      output.paint(
        'yellow',
        `${marked.map((f) => f.path).join(', ')} ${marked.length === 1 ? 'holds' : 'hold'} conflict markers: ` +
          'edit each region to what it should be (your lines between <<<<<<< folder and =======, the ' +
          "server's between ======= and >>>>>>> server) and delete the marker lines, then push; check lists " +
          'any marker left.',
      ),
    );
  }
  conflictHint(
    output,
    files.filter((f) => !markedByMerge(f)),
  );
  const code = exitCodeOf(files);
  output.document({
    ok: code === 0,
    dir: workspace.dir,
    ...themeJson(workspace.manifest),
    files,
    ...extra,
  });
  return code;
}
