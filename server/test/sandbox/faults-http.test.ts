/** Fault rules through the control API, over real HTTP on a JSON data directory (see fault-scenarios.ts). */
import { join } from 'node:path';
import type { FaultRule, JournalEntry } from '@storefront-platform/server/msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { type FaultDoor, faultScenarios, moreFaultScenarios } from './fault-scenarios.js';

const tempDir = useTempDir();
let server: StorefrontServer;
beforeEach(async () => {
  server = await createServer({
    port: 0,
    data: join(await tempDir(), 'db.json'),
    products: 3,
    control: true,
    explorer: false,
  });
});
afterEach(() => server.close());

async function control(method: string, body?: unknown, path = '/faults'): Promise<Response> {
  const response = await fetch(`${server.control!.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.control!.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 400) throw new Error(`${response.status} ${await response.text()}`);
  return response;
}

const door = (): FaultDoor => ({
  add: async (rule) => (await (await control('POST', rule)).json()) as FaultRule,
  list: async () => ((await (await control('GET')).json()) as { faults: FaultRule[] }).faults,
  clear: async () => void (await control('DELETE')),
  fetch: (path, init) => fetch(`${server.origin}${path}`, init),
  refusal: /^400 .*"_class":\["errors"\]/,
  token: async (scope) =>
    ((await (await control('POST', { scope }, '/tokens')).json()) as { access_token: string }).access_token,
  origin: () => server.origin,
  journal: async () =>
    ((await (await control('GET', undefined, '/journal')).json()) as { entries: JournalEntry[] }).entries,
});

describe('fault rules over HTTP', () => {
  faultScenarios(door);
  moreFaultScenarios(door);

  it('are linked from the control API, and leave the control API itself alone', async () => {
    const index = await fetch(server.control!.url, { headers: { authorization: `Bearer ${server.control!.token}` } });
    const links = ((await index.json()) as { _links: Record<string, { href: string }> })._links;
    expect(links.faults!.href).toBe(`${server.control!.url}/faults`);
    await door().add({ kind: 'status', status: 500 });
    expect((await door().list()).length).toBe(1);
    expect((await fetch(`${server.origin}/v1/nowhere`)).status).toBe(500);
  });
});
