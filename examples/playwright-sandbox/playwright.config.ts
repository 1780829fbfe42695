/**
 * A Playwright suite in a process of its own, steering a sandbox of the reference server through its control API:
 * one project on the JSON store, one on PostgreSQL served by two workers. `npx playwright test -c
 * examples/playwright-sandbox` (README.md beside this file).
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { StoreName } from './sandbox-handle.js';

/** Debian's Chromium, as the repository's browser tests use it (test/browser/support/chromium.ts): no download. */
const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => !!path && existsSync(path),
);

export default defineConfig<{ store: StoreName }>({
  testDir: './specs',
  // Traces and error contexts of failed tests, out of the repository.
  outputDir: join(tmpdir(), 'storefront-playwright-sandbox'),
  globalSetup: './global-setup.ts',
  // The tests of a project share its sandbox and reset it before each: one at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  timeout: 20_000,
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      ...(chromium ? { executablePath: chromium } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    },
  },
  projects: [
    // Two workers and their fault rules, clock and journal are the subject of `workers.spec.ts`: one process here.
    { name: 'json', use: { store: 'json' }, testIgnore: /workers\.spec\.ts/ },
    { name: 'postgres', use: { store: 'postgres' } },
  ],
});
