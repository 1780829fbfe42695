/**
 * The Playwright example (examples/playwright-sandbox), run as a team runs it: `npx playwright test` in a process of
 * its own, whose global setup starts the sandboxes (the JSON store, and PostgreSQL with two workers) and whose
 * specs steer them through the control API. It runs on the built packages, which this project's global setup
 * builds when stale; any failed, skipped or flaky spec fails this test, with Playwright's report.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { chromiumPath, describeInBrowser } from '../browser/support/chromium.js';
import { POSTGRES, postgresUrl } from '../support/postgres-server.js';
import { skipWithout } from '../support/requirement.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `npx playwright test` of the example: its exit code and everything it printed. */
function playwrightTest(env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['playwright', 'test', '-c', 'examples/playwright-sandbox', '--reporter=list'],
      { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

describeInBrowser('the Playwright example', () => {
  it.skipIf(skipWithout(POSTGRES, 'The Playwright example'))(
    'passes on the JSON store and on PostgreSQL with two workers',
    { timeout: 120_000 },
    async () => {
      const { code, output } = await playwrightTest({
        SANDBOX_DATABASE_URL: await postgresUrl(),
        CHROMIUM_PATH: chromiumPath!,
      });
      expect(code, output).toBe(0);
      expect(output).toMatch(/^ +\d+ passed/m);
      expect(output).not.toMatch(/^ +\d+ (failed|skipped|flaky|did not run)/m);
      // Both projects ran, the fleet's own spec in the PostgreSQL one.
      expect(output).toMatch(/\[json\] › .*state\.spec\.ts/);
      expect(output).toMatch(/\[postgres\] › .*workers\.spec\.ts/);
    },
  );
});
