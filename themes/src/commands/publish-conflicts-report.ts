/** How `publish` shows the files both themes changed: each with both sides, and how to settle them. */
import type { Output } from '../cli/output.js';
import { plural } from '../cli/report.js';
import { printable, printableWhole } from '../printable.js';
import type { PublishChange, PublishConflict } from '../theme/publish-plan.js';
import type { FileResult } from '../theme/results.js';

/** What a change's line says beside its action, when it is not a plain copy of the development theme's file. */
const HOW: Record<NonNullable<PublishChange['how']>, string> = {
  merged: "merged: production's changes kept",
  renamed: 'renamed on one side, changed on the other',
  ours: 'conflict settled for the development theme (--ours)',
};

/** A change as a line of the plan (and of `--json`): without a merge's text. */
export function changeResult(change: PublishChange): FileResult {
  return {
    path: change.path,
    kind: change.kind,
    action: change.action,
    ...(change.how ? { message: HOW[change.how] } : {}),
  };
}

/** How to settle conflicts, for the line after them and the error. */
export const SETTLE =
  "bring production's change into the development theme and push, or publish --ours (the development theme's side wins) or --theirs (production's side wins)";

/** Indents each line of a conflict region's text under its side's label. */
function region(output: Output, label: string, text: string): void {
  output.line(`    ${output.paint('dim', label)}`);
  for (const line of (text || '(nothing)\n').replace(/\n$/, '').split('\n'))
    output.line(`      ${printableWhole(line)}`);
}

/** Lists the conflicts: the file, what each side did, why they cannot be combined, and the lines in question. */
export function printConflicts(output: Output, conflicts: readonly PublishConflict[]): void {
  output.line(`${plural(conflicts.length, 'conflict')}: both themes changed these files, differently:`);
  for (const conflict of conflicts) {
    const sides = `development theme: ${conflict.development}, production: ${conflict.production}`;
    output.line(
      `  ${output.paint('red', 'conflict')} ${printable(conflict.path)} (${sides}: ${printableWhole(conflict.reason)})`,
    );
    for (const { development, production } of conflict.regions ?? []) {
      region(output, 'development theme:', development);
      region(output, 'production:', production);
    }
  }
}

/** Lists the conflicts `--ours` or `--theirs` settled. */
export function printResolved(output: Output, resolved: readonly PublishConflict[], favour: 'ours' | 'theirs'): void {
  if (!resolved.length) return;
  const side = favour === 'ours' ? "the development theme's side" : "production's side";
  output.line(`${plural(resolved.length, 'conflict')} settled by --${favour} (${side} wins):`);
  for (const conflict of resolved) {
    output.line(`  ${printable(conflict.path)} (${printableWhole(conflict.reason)})`);
  }
}
