/** `startSandbox()` and `connectSandbox()`: a sandbox of its own, steered from this process and from another. */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connectSandbox, type RunningSandbox, SandboxError, startSandbox } from '../../src/index.js';
import { tokenRequest } from '../helpers/test-server.js';

const CHILD = fileURLToPath(new URL('./client-child.ts', import.meta.url));
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ products: 4 });
});
afterAll(() => sandbox.stop());

test('starts on a free port with demo credentials and a control client', async () => {
  const response = await tokenRequest(
    sandbox.origin,
    { grant_type: 'client_credentials', scope: 'admin' },
    sandbox.credentials,
  );
  expect(response.status).toBe(200);
  expect(sandbox.credentials.password).toEqual(expect.any(String));
  const { control } = sandbox;
  const first = sandbox.credentials.clientId;
  await control.snapshots.take('start');
  expect((await control.snapshots.list()).map((s) => s.name)).toContain('start');
  const step = await control.clock.advance(60_000);
  expect(step.epochMs).toBeGreaterThan(Date.now() + 50_000);
  await control.reset();
  await control.snapshots.restore('start');
  await control.snapshots.delete('start');
  await expect(control.snapshots.restore('start')).rejects.toMatchObject({ status: 404 });
  await expect(control.snapshots.take('a/b')).rejects.toBeInstanceOf(SandboxError);
  expect((await control.journal.entries({ path: '/oauth/token' })).map((e) => e.status)).toEqual([200]);
  await control.journal.clear();
  expect(await control.journal.entries()).toEqual([]);
  expect(first).toBe(sandbox.credentials.clientId);
});

test('adds, lists and clears fault rules', async () => {
  const { control } = sandbox;
  const rule = await control.faults.add({ kind: 'status', status: 502, path: '/v1/', times: 1, seed: 5 });
  expect(rule).toMatchObject({ kind: 'status', status: 502, times: 1, seed: 5, hits: 0 });
  expect((await fetch(`${sandbox.baseUrl}/`)).status).toBe(502);
  expect(await control.faults.list()).toEqual([{ ...rule, times: 0, hits: 1 }]);
  await expect(control.faults.add({ kind: 'delay' })).rejects.toMatchObject({ status: 400 });
  await control.faults.clear();
  expect(await control.faults.list()).toEqual([]);
});

test('another process steers it with connectSandbox', async () => {
  await fetch(`${sandbox.baseUrl}/`);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', CHILD, sandbox.connection.url, sandbox.connection.token],
    { cwd: fileURLToPath(new URL('../../..', import.meta.url)) },
  );
  const seen = JSON.parse(stdout.trim()) as {
    snapshot: string;
    year: number;
    journal: { path: string }[];
    refused: number;
  };
  expect(seen).toMatchObject({ snapshot: 'from-child', year: 2031, refused: 401 });
  expect(seen.journal.map((e) => e.path)).toContain('/v1/');
  expect((await sandbox.control.snapshots.list()).map((s) => s.name)).toContain('from-child');
  expect(new Date((await sandbox.control.clock.now()).epochMs).getUTCFullYear()).toBe(2031);
});

test("rejects with a SandboxError when a proxy answers its own page instead of the control API's JSON", async () => {
  const proxy = createServer((_request, response) => {
    response.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  try {
    const client = connectSandbox({ url: `http://127.0.0.1:${port}/_sandbox`, token: 'proxy-token-0123456789' });
    const refused = await client.reset().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SandboxError);
    expect(refused).toMatchObject({ status: 502, message: `POST http://127.0.0.1:${port}/_sandbox/reset: 502` });
  } finally {
    await new Promise((resolve) => proxy.close(resolve));
  }
});
