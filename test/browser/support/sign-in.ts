/** The reference server's authorization page, filled in and approved as a user would. */
import type { Page } from 'playwright-core';

export async function approveOnAuthorizePage(page: Page, login: string, password: string): Promise<void> {
  await page.waitForURL(/\/oauth\/authorize\?/);
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Approve' }).click();
}
