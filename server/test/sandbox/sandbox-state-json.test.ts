/**
 * The sandbox's fault rules and clock in a JSON data directory: stored as the collections `fault_rules` and
 * `sandbox_settings`, which data written before they existed lacks and still opens with; kept through a reset and
 * a restore (they are not data); cleared when a server with the control API starts on the directory again.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const TOKEN = 'sandbox-state-token-0123456789';
const DAY = 86_400_000;
let server: StorefrontServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(path: string) {
  server = await createServer({ port: 0, data: path, products: 3, control: { token: TOKEN }, explorer: false });
  return server;
}

async function control(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server!.control!.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>);
}

const epochMs = async () => (await control('GET', '/clock'))!.epoch_ms as number;

describe('the sandbox state in a JSON data directory', () => {
  it('opens data written before the sandbox collections existed, stores rules and clock, and clears them at start', async () => {
    const path = join(await tempDir(), 'db.json');
    await (await start(path)).close();
    // As an older server left it: a manifest without the two collections, and no files of theirs.
    const manifest = JSON.parse(await readFile(path, 'utf8'));
    for (const name of ['fault_rules', 'sandbox_settings']) {
      await rm(join(path, '..', manifest.collections[name]));
      delete manifest.collections[name];
    }
    await writeFile(path, JSON.stringify(manifest));

    await start(path);
    const before = await epochMs();
    await control('POST', '/faults', { kind: 'status', status: 503, path: '/v1/nowhere' });
    await control('POST', '/clock/advance', { ms: DAY });
    expect((await fetch(`${server!.origin}/v1/nowhere`)).status).toBe(503);
    const rules = JSON.parse(await readFile(join(path, '..', 'db.fault_rules.json'), 'utf8'));
    expect(rules).toEqual([expect.objectContaining({ kind: 'status', status: 503, path: '/v1/nowhere', hits: 1 })]);
    const settings = JSON.parse(await readFile(join(path, '..', 'db.sandbox_settings.json'), 'utf8'));
    expect(settings).toEqual([{ id: 'clock', offset_ms: expect.any(Number) }]);
    await server!.close();

    await start(path);
    expect((await control('GET', '/faults'))!.faults).toEqual([]);
    expect((await epochMs()) - before).toBeLessThan(DAY / 2);
    expect((await fetch(`${server!.origin}/v1/nowhere`)).status).toBe(404);
  });

  it('keeps the rules and the clock through a reset and a restore', async () => {
    await start(join(await tempDir(), 'db.json'));
    await control('PUT', '/snapshots/start');
    const before = await epochMs();
    await control('POST', '/faults', { kind: 'status', status: 418, path: '/v1/teapot' });
    await control('POST', '/clock/advance', { ms: DAY });
    await control('POST', '/reset');
    await control('POST', '/snapshots/start/restore');
    expect((await control('GET', '/faults'))!.faults).toEqual([expect.objectContaining({ status: 418 })]);
    expect((await epochMs()) - before).toBeGreaterThanOrEqual(DAY);
    expect((await fetch(`${server!.origin}/v1/teapot`)).status).toBe(418);
  });
});
