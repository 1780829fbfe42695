/**
 * A failure of `drift` itself (a bug of ours, not an answer of the API) exits 70, not 3: CI must not take it for an
 * outage and wait for the API to come back. The check is replaced by one that fails as a bug would (in a file of
 * its own, run isolated: see vitest.config.ts).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { runDrift } from '../../src/drift-command.js';

vi.mock('../../src/drift/check-drift.js', () => ({
  DEFAULT_DRIFT_SAMPLE: 20,
  checkDrift: async () => {
    const entity = undefined as unknown as { links: unknown };
    return entity.links;
  },
}));

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

it('exits 70 on an error of its own, says it is a bug with its stack, and writes a report that says so', async () => {
  vi.stubEnv('STOREFRONT_REMOTE_CLIENT_ID', 'drift-app');
  vi.stubEnv('STOREFRONT_REMOTE_CLIENT_SECRET', 'drift-secret-0123456789');
  let stderr = '';
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => {
    stderr += `${line}\n`;
  });
  const dir = await mkdtemp(join(tmpdir(), 'drift-bug-'));
  try {
    const output = join(dir, 'report.json');
    const code = await runDrift(['--against', 'http://127.0.0.1:9/v1', '--format', 'json', '--output', output]);
    expect(code).toBe(70);
    expect(stderr).toMatch(
      /^storefront-server drift: the check stopped on an error of its own, not the API's \(a bug: please report it\): Cannot read properties of undefined \(reading 'links'\)\n\s+at /,
    );
    expect(stderr).toContain('drift-bug.test.ts');
    const report = JSON.parse(await readFile(output, 'utf8'));
    expect(report).toMatchObject({ disagreements: [], uncheckedKinds: ['Root'] });
    expect(report.unchecked[0].reason).toMatch(/a bug: please report it/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
