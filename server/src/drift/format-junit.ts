/**
 * A drift report as JUnit XML, the form CI servers show test results in: one `testsuite` per kind, one
 * `testcase` per check made of it. A check that found disagreements is one `testcase` per disagreement (named
 * with its path), each with its `failure`, since a test case holds one failure at most.
 */
import { DRIFT_CHECKS, type DriftReport } from './report.js';

/** Text for XML content and attribute values; characters XML 1.0 cannot hold are dropped. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

export function formatJunit(report: DriftReport): string {
  const suites: string[] = [];
  const kinds = new Set([...Object.keys(report.kinds), ...report.disagreements.map((found) => found.kind)]);
  let tests = 0;
  let failures = 0;
  for (const kind of [...kinds].sort()) {
    const cases: string[] = [];
    let suiteFailures = 0;
    for (const check of DRIFT_CHECKS) {
      const found = report.disagreements.filter((one) => one.kind === kind && one.check === check);
      if (found.length === 0) {
        cases.push(`    <testcase classname="drift.${xml(kind)}" name="${check}"/>`);
        continue;
      }
      for (const one of found) {
        suiteFailures++;
        cases.push(
          `    <testcase classname="drift.${xml(kind)}" name="${check} ${xml(one.path)}">`,
          `      <failure type="${check}" message="${xml(one.message)}">${xml(`${one.message}\nseen ${one.count} time${one.count === 1 ? '' : 's'}, e.g. at ${one.example}`)}</failure>`,
          '    </testcase>',
        );
      }
    }
    const count = cases.filter((line) => line.startsWith('    <testcase')).length;
    tests += count;
    failures += suiteFailures;
    suites.push(
      `  <testsuite name="${xml(kind)}" tests="${count}" failures="${suiteFailures}" errors="0" skipped="0">`,
      ...cases,
      '  </testsuite>',
    );
  }
  // Reads an outage prevented: a test that could not run (an error), not a failure of the contract.
  const errors = report.unchecked.length;
  if (errors > 0) {
    tests += errors;
    suites.push(
      `  <testsuite name="unchecked" tests="${errors}" failures="0" errors="${errors}" skipped="0">`,
      ...report.unchecked.map(
        (read) =>
          `    <testcase classname="drift.unchecked" name="${xml(read.url)}"><error type="unchecked" message="${xml(read.reason)}">${xml(`${read.reason}\nunchecked: ${read.kinds.join(', ')}`)}</error></testcase>`,
      ),
      '  </testsuite>',
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`storefront-server drift --against ${report.against}`)}" tests="${tests}" failures="${failures}" errors="${errors}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
