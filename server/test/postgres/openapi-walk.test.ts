/** The served document, walked on a server over PostgreSQL (see server/test/openapi/walk.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { QUIET_WEBHOOKS, walkDocument } from '../openapi/walk.js';

const skip = skipWithout(POSTGRES, 'The OpenAPI walk on PostgreSQL');

let schema: FreshSchema;
let server: StorefrontServer;

describe.skipIf(skip)('every operation of the served document, sent to the server it describes (PostgreSQL)', () => {
  beforeAll(async () => {
    schema = await freshSchema();
    server = await createServer({ port: 0, products: 4, store: schema.url, webhooks: QUIET_WEBHOOKS });
  });
  afterAll(async () => {
    await server?.close();
    await schema?.drop();
  });

  it('answers each example and each bound without a 5xx, and takes every request the document declares valid', async () => {
    const { sent, failures } = await walkDocument(server);
    expect(sent).toBeGreaterThan(150);
    expect(failures).toEqual([]);
  }, 60_000);
});
