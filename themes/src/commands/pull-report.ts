/** What `pull` and `dev` print after pulling. */
import type { Output } from '../cli/output.js';
import { conflictHint, countsOf, exitCodeOf, plural, printFiles, themeJson, themeName } from '../cli/report.js';
import type { ExitCode } from '../errors.js';
import { printableWhole } from '../printable.js';
import type { PullResult } from '../theme/pull.js';

export function reportPull(output: Output, result: PullResult, barShown: boolean, extra: object = {}): ExitCode {
  const { files, workspace } = result;
  printFiles(output, files, { quiet: barShown });
  const written = files.filter((f) => f.action !== 'conflict' && f.action !== 'failed').length;
  const summary = written || files.length ? countsOf(files) : 'already up to date';
  output.line(`Pulled ${themeName(workspace.manifest)} into ${printableWhole(workspace.dir)}: ${summary}`);
  const unpushed = workspace.changes.filter((c) => c.local && !c.conflict).length;
  if (unpushed) output.line(`${plural(unpushed, 'change')} of this folder not pushed yet (see status)`);
  conflictHint(output, files);
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
