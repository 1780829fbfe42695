/**
 * `storefront-server drift` as the built bin runs it: dispatched from the main command, the app's secret from the
 * environment, the report on stdout and the exit code of the agreement.
 */
import { describe, expect, it } from 'vitest';
import { useCli } from './helpers/cli-process.js';
import { useTestServer } from './helpers/test-server.js';

const cli = useCli();
const server = useTestServer({ products: 4 });

describe('storefront-server drift', () => {
  it('reports no disagreement with our own server as JSON, exit code 0', async () => {
    const { baseUrl, credentials } = server();
    const drift = cli(['drift', '--against', baseUrl, '--client-id', credentials!.clientId, '--format', 'json'], {
      env: { STOREFRONT_REMOTE_CLIENT_SECRET: credentials!.clientSecret },
    });
    expect(await drift.exited).toBe(0);
    const report = JSON.parse(drift.stdout());
    expect(report).toMatchObject({ against: baseUrl, disagreements: [] });
    expect(report.kinds.Root.reads).toBe(1);
    expect(drift.stdout() + drift.stderr()).not.toContain(credentials!.clientSecret);
  });

  it('is in the main usage, has its own, and refuses a missing secret with exit code 2', async () => {
    const help = cli(['--help']);
    expect(await help.exited).toBe(0);
    expect(help.stdout()).toMatch(/storefront-server drift --against URL/);
    const own = cli(['drift', '--help']);
    expect(await own.exited).toBe(0);
    expect(own.stdout()).toMatch(/--format FORMAT {4}text \(default\), json or junit/);
    const missing = cli(['drift', '--against', server().baseUrl, '--client-id', 'x']);
    expect(await missing.exited).toBe(2);
    expect(missing.stderr()).toMatch(/STOREFRONT_REMOTE_CLIENT_SECRET is needed/);
  });
});
