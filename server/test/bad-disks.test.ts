/**
 * The server on real bad disks (issue #29): a full one answers 507 with the API's error body and the token
 * endpoint 503 `temporarily_unavailable`, one log line each naming the data directory; a read-only one answers
 * 503; a start on a read-only data directory is one line and exit 1. Every write acknowledged before is still
 * there after a restart.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, type StorefrontServer } from '../src/create-server.js';
import { seed } from '../src/seed/index.js';
import { StoreFileError } from '../src/store/errors.js';
import { createMemoryStore } from '../src/store/memory.js';
import { startCli } from './helpers/cli-process.js';
import { canMountSmallDisks, mountSmallDisk, type SmallDisk } from './helpers/small-disk.js';
import { clientToken, tokenRequest } from './helpers/test-server.js';

const mountable = await canMountSmallDisks('the bad-disk tests');
const PASSWORD = 'demo password';

const disks: SmallDisk[] = [];
const servers: StorefrontServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of servers.splice(0)) await server.close().catch(() => undefined);
  for (const disk of disks.splice(0)) {
    disk.readOnly(false);
    await disk.remove();
  }
});

async function disk(size: string, options?: { readOnly?: boolean }): Promise<SmallDisk> {
  const mounted = await mountSmallDisk(size, options);
  disks.push(mounted);
  return mounted;
}

async function start(data: string): Promise<StorefrontServer> {
  // No products: the seeded data (themes, images) must leave room on a disk of 512 KiB.
  const server = await createServer({ port: 0, data, products: 0, demo: { password: PASSWORD } });
  servers.push(server);
  return server;
}

async function restart(server: StorefrontServer, data: string): Promise<StorefrontServer> {
  servers.splice(servers.indexOf(server), 1);
  await server.close();
  return start(data);
}

/** `POST` of a template to the demo shop's theme, with an admin token. */
function postTemplate(server: StorefrontServer, token: string, file_name: string): Promise<Response> {
  return fetch(`${server.baseUrl}/themes/1/templates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ file_name, body: `<p>${file_name}</p>` }),
  });
}

async function templateNames(server: StorefrontServer, token: string): Promise<string[]> {
  const response = await fetch(`${server.baseUrl}/shops/1/theme.json`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const doc = (await response.json()) as { _embedded: { templates: { file_name: string }[] } };
  return doc._embedded.templates.map((template) => template.file_name);
}

/** Whether `token` is still accepted. */
async function works(server: StorefrontServer, token: string): Promise<boolean> {
  return (await fetch(`${server.baseUrl}/`, { headers: { authorization: `Bearer ${token}` } })).status === 200;
}

/** The lines the server logs on standard error during `run`. */
async function logged(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

describe.skipIf(!mountable)('the server on a bad disk', () => {
  it('answers 507 to a template write and 503 temporarily_unavailable to a token request on a full disk, keeping every acknowledged write', async () => {
    const { dir, fill } = await disk('512k');
    const data = join(dir, 'db.json');
    let server = await start(data);
    const token = await clientToken(server);
    expect((await postTemplate(server, token, 'partials/before.html')).status).toBe(201);

    const filler = await fill();
    const lines = await logged(async () => {
      const refused = await postTemplate(server, token, 'partials/refused.html');
      expect(refused.status).toBe(507);
      expect(await refused.json()).toEqual({
        _class: ['errors'],
        message: "Insufficient storage: the server's disk is full; nothing was written",
        request_id: refused.headers.get('x-request-id'),
      });
      // The failed write gave back what it had taken (its temporary files, the journal's room): full again.
      await fill();
      await expectTokenUnavailable(server);
    });
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toContain(`no space left in the data directory ${dir} (ENOSPC)`);
      expect(line.split('\n')).toHaveLength(1);
    }
    expect(lines[0]).toMatch(/^storefront-server: POST \/v1\/themes\/1\/templates answered 507/);
    expect(lines[1]).toMatch(/^storefront-server: POST \/oauth\/token answered 503/);
    // Still serving reads.
    expect(await works(server, token)).toBe(true);

    await rm(filler);
    server = await restart(server, data);
    expect(await works(server, token)).toBe(true);
    const names = await templateNames(server, token);
    expect(names).toContain('partials/before.html');
    expect(names).not.toContain('partials/refused.html');
  });

  it('refuses to start on a read-only data directory with one line naming it and what to do, exit 1', async () => {
    const { dir, readOnly } = await disk('1m');
    const data = join(dir, 'db.json');
    const seeded = await start(data);
    servers.pop();
    await seeded.close();
    readOnly(true);

    const cli = startCli(['--port', '0', '--data', data]);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toBe(
      `storefront-server: the data directory ${dir} cannot be written (EROFS): make it writable (the data and its` +
        ' lock live there), or choose another with --data FILE or STOREFRONT_DATA.\n',
    );
  });
});

// A live JSON-file store keeps its journal open for writing, so a running server's tmpfs cannot be remounted
// read-only (EBUSY): its writes are made to fail as a read-only disk fails them instead.
/** The token endpoint of `server` answers 503 `temporarily_unavailable` (RFC 6749) to a client-credentials grant. */
async function expectTokenUnavailable(server: { origin: string; credentials: Parameters<typeof tokenRequest>[2] }) {
  const refused = await tokenRequest(
    server.origin,
    { grant_type: 'client_credentials', scope: 'admin' },
    server.credentials,
  );
  expect(refused.status).toBe(503);
  expect(await refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
}

describe('the server whose disk turned read-only', () => {
  it('answers 503 with the API error body, and 503 temporarily_unavailable on the token endpoint', async () => {
    const store = createMemoryStore(seed({ products: 0, password: PASSWORD }).dataset);
    let readOnly = false;
    const failing = new Proxy(store, {
      get(target, name, receiver) {
        if (name !== 'write' || !readOnly) return Reflect.get(target, name, receiver);
        const cause = Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' });
        return () =>
          Promise.reject(new StoreFileError('/srv/data/db.templates/9.json', 'cannot be written', { cause }));
      },
    });
    const server = await createServer({ port: 0, data: failing });
    servers.push(server);
    const token = await clientToken(server);

    readOnly = true;
    const lines = await logged(async () => {
      const refused = await postTemplate(server, token, 'partials/refused.html');
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({
        _class: ['errors'],
        message: 'Service unavailable: the server cannot write its data; nothing was written',
        request_id: refused.headers.get('x-request-id'),
      });
      await expectTokenUnavailable(server);
    });
    expect(lines).toEqual([
      'storefront-server: POST /v1/themes/1/templates answered 503: cannot write the data directory' +
        ' /srv/data/db.templates (EROFS); make it writable, nothing was written',
      'storefront-server: POST /oauth/token answered 503: cannot write the data directory /srv/data/db.templates' +
        ' (EROFS); make it writable, nothing was written',
    ]);
  });
});
