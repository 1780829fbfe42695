/** `npm run example -- <name>` (examples/run.ts) as the docs tell people to run it: arguments, environment, exit codes. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the runner with `env` added to a clean STOREFRONT_* environment. */
async function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('STOREFRONT_')));
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'examples/run.ts', ...args],
      { cwd: ROOT, env: { ...clean, ...env }, timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('examples/run.ts', () => {
  let dir: string;
  let server: StorefrontServer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'storefront-runner-'));
    server = await createServer({ port: 0, products: 30, data: join(dir, 'db.json') });
  });
  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs an example with the credentials from the environment and its own arguments', async () => {
    const result = await run(['list-products', '--query', 'jacket', '--per-page', '2'], {
      STOREFRONT_URL: server.origin,
      STOREFRONT_CLIENT_ID: server.credentials!.clientId,
      STOREFRONT_CLIENT_SECRET: server.credentials!.clientSecret,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Northwind Outfitters: \d+ products matching "jacket"\n— page 1 of \d+\n/);
  }, 60_000);

  it("reads the demo app from the server's data file when no credentials are given", async () => {
    const result = await run(['client-credentials'], {
      STOREFRONT_URL: server.origin,
      STOREFRONT_DATA: join(dir, 'db.json'),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Sales report \(paid orders\), as Dana Demo:\n/);
  }, 60_000);

  it('explains what is missing, and exits non-zero', async () => {
    const noData = await run(['list-products'], {
      STOREFRONT_URL: server.origin,
      STOREFRONT_DATA: join(dir, 'none.json'),
    });
    expect(noData.code).toBe(1);
    expect(noData.stderr).toMatch(
      /STOREFRONT_CLIENT_ID and STOREFRONT_CLIENT_SECRET are not set.*Start the server first/s,
    );

    const down = await run(['list-products'], {
      STOREFRONT_URL: 'http://127.0.0.1:9',
      STOREFRONT_CLIENT_ID: 'x',
      STOREFRONT_CLIENT_SECRET: 'y',
    });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(
      'Nothing answers at http://127.0.0.1:9. Is the server running? Start it with: npm start',
    );
    // A server on another port (npm start -- --port 5000) is reached by naming its origin.
    expect(down.stderr).toMatch(/--port 5000.*STOREFRONT_URL=http:\/\/127.0.0.1:5000/s);

    const usage = await run(['theme-sync', 'sideways']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: theme-sync pull|push DIR');
  }, 60_000);

  it('lists the examples on --help, and refuses an unknown one', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const name of ['list-products', 'theme-sync', 'dev-theme', 'keep-alive', 'client-credentials']) {
      expect(help.stdout).toContain(`  ${name} `);
    }
    const unknown = await run(['nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown example "nope"/);
  }, 60_000);
});
