/** The served document, walked on a server over a JSON file (see walk.ts). */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { QUIET_WEBHOOKS, walkDocument } from './walk.js';

let server: StorefrontServer;
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'storefront-walk-'));
  server = await createServer({ port: 0, products: 4, data: join(directory, 'data.json'), webhooks: QUIET_WEBHOOKS });
});
afterAll(async () => {
  await server?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('every operation of the served document, sent to the server it describes (JSON file)', () => {
  it('answers each example and each bound without a 5xx, and takes every request the document declares valid', async () => {
    const { sent, failures } = await walkDocument(server);
    expect(sent).toBeGreaterThan(150);
    expect(failures).toEqual([]);
  });
});
