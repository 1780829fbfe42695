/** How `check` and `publish` show the problems found in a theme. */
import { printable, printableWhole } from '../printable.js';
import type { CheckProblem } from '../theme/check.js';
import type { Output } from './output.js';
import { plural } from './report.js';

/** One line per problem (`error   styles/theme.css:3:5  Unknown word (css)`) and a summary; the number of errors. */
export function printProblems(output: Output, problems: readonly CheckProblem[], files: number): number {
  for (const problem of problems) {
    const path = printable(problem.path);
    const place = problem.line === undefined ? path : `${path}:${problem.line}:${problem.column}`;
    const severity = output.paint(problem.severity === 'error' ? 'red' : 'yellow', problem.severity.padEnd(7));
    output.line(
      `  ${severity} ${place}  ${printableWhole(problem.message)} ${output.paint('dim', `(${problem.rule})`)}`,
    );
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  output.line(
    problems.length
      ? `${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${plural(files, 'file')}`
      : `No problems in ${plural(files, 'file')}`,
  );
  return errors;
}
