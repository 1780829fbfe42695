/** `checkDrift` against our own server on PostgreSQL: the same answers as on a JSON file, so no disagreement. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { checkDrift, createServer, type StorefrontServer } from '../../src/index.js';

const skip = skipWithout(POSTGRES, 'drift against a server on PostgreSQL');

describe.skipIf(skip)('checkDrift against a server on PostgreSQL', () => {
  let schema: FreshSchema;
  let server: StorefrontServer;
  beforeAll(async () => {
    schema = await freshSchema();
    server = await createServer({ port: 0, products: 8, store: schema.url });
  });
  afterAll(async () => {
    await server?.close();
    await schema?.drop();
  });

  it('finds no disagreement', async () => {
    const { clientId, clientSecret } = server.credentials!;
    const report = await checkDrift({ url: server.baseUrl, clientId, clientSecret, sample: 2 });
    expect(report.disagreements).toEqual([]);
    expect(report.kinds.Product?.reads).toBe(2);
    expect(report.kinds.ThemeTemplate?.reads).toBe(2);
  });
});
