/** An axe-core scan of the page as it is now: the violations, by impact. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** One rule a page breaks, and a few of the elements that break it. */
export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

let source: Promise<string> | undefined;

export async function axeViolations(page: Page): Promise<Violation[]> {
  source ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await source);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    }));
  });
}

/** The violations that count against the page: serious and critical ones. */
export function serious(violations: readonly Violation[]): Violation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
