/** Driving a page with the keyboard only: where Tab goes, and whether it reaches every control. */
import type { Page } from 'playwright-core';

/** Marks each visible, enabled control of the page (radio groups once) with `data-kb`; returns how many. */
export function markControls(page: Page): Promise<number> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input, textarea, select, summary, [tabindex="0"]';
    const seenGroups = new Set<string>();
    let count = 0;
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      element.removeAttribute('data-kb');
      const disabled = (element as HTMLButtonElement).disabled === true;
      const hidden = element.getClientRects().length === 0 || element.closest('[hidden], dialog:not([open])');
      if (disabled || hidden) continue;
      if (element instanceof HTMLInputElement && element.type === 'radio') {
        if (seenGroups.has(element.name)) continue;
        seenGroups.add(element.name);
      }
      element.dataset.kb = String(count++);
    }
    return count;
  });
}

/** The `data-kb` mark of the focused element (the group's for a radio); `undefined` when none is marked. */
function focusedMark(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement | null;
    if (focused instanceof HTMLInputElement && focused.type === 'radio') {
      return document.querySelector<HTMLElement>(`input[type=radio][name="${focused.name}"][data-kb]`)?.dataset.kb;
    }
    return focused?.dataset.kb;
  });
}

/** Presses Tab `presses` times from the top of the page; the marks of the controls focused on the way. */
export async function tabThrough(page: Page, presses: number): Promise<Set<string>> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const reached = new Set<string>();
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab');
    const mark = await focusedMark(page);
    if (mark !== undefined) reached.add(mark);
  }
  return reached;
}

/** Presses Tab until the focused element matches `selector`, at most `limit` times; false when it never did. */
export async function tabTo(page: Page, selector: string, limit = 200): Promise<boolean> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) === true, selector)) return true;
  }
  return false;
}
