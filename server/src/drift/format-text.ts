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
  lines.push(
    '',
    report.disagreements.length === 0
      ? 'No disagreement: the API answers as the contract says.'
      : `${report.disagreements.length} disagreement${report.disagreements.length === 1 ? '' : 's'} in ${byKind.size} kind${byKind.size === 1 ? '' : 's'}.`,
  );
  return `${lines.join('\n')}\n`;
}
