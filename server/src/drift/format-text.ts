/** A drift report for people: per kind, each disagreement with its path and a URL that shows it. */
import type { DriftReport } from './report.js';

export function formatText(report: DriftReport): string {
  const lines: string[] = [];
  const kinds = Object.entries(report.kinds);
  const reads = kinds.reduce((sum, [, kind]) => sum + kind.reads, 0);
  lines.push(`Drift of ${report.against} from the contract (${reads} reads, ${kinds.length} kinds checked)`);
  // Not `Map.groupBy`: Node 20 lacks it.
  const byKind = new Map<string, DriftReport['disagreements']>();
  for (const found of report.disagreements) byKind.set(found.kind, [...(byKind.get(found.kind) ?? []), found]);
  for (const [kind, found] of byKind) {
    const summary = report.kinds[kind];
    lines.push(
      '',
      `${kind}${summary ? ` (${summary.checked} checked)` : ''}: ${found.length} disagreement${found.length === 1 ? '' : 's'}`,
    );
    for (const one of found) {
      const times = one.count > 1 ? ` (×${one.count})` : '';
      lines.push(`  ${one.check} ${one.path}${times}: ${one.message}`, `    e.g. ${one.example}`);
    }
  }
  if (report.unchecked.length > 0) {
    const kinds = report.uncheckedKinds.length > 0 ? `; not checked at all: ${report.uncheckedKinds.join(', ')}` : '';
    lines.push('', `Could not check (the API failed, which is no disagreement)${kinds}:`);
    for (const read of report.unchecked) lines.push(`  ${read.url}: ${read.reason}`);
  }
  lines.push(
    '',
    report.disagreements.length === 0 && report.unchecked.length > 0
      ? `No disagreement in what could be read; ${report.unchecked.length} read${report.unchecked.length === 1 ? '' : 's'} could not be made.`
      : report.disagreements.length === 0
        ? 'No disagreement: the API answers as the contract says.'
        : `${report.disagreements.length} disagreement${report.disagreements.length === 1 ? '' : 's'} in ${byKind.size} kind${byKind.size === 1 ? '' : 's'}.`,
  );
  return `${lines.join('\n')}\n`;
}
