/**
 * `importShop` into a PostgreSQL schema (made for the test, dropped after): a server on that schema serves every
 * resource as the source does, no row holds a credential used, and a schema holding data is refused.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { importShop } from '../../src/import/import-shop.js';
import { type DemoCredentials, seed } from '../../src/seed/index.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { credentialRecorder } from './credential-recorder.js';
import { adminToken, servedResources } from './served-resources.js';

const SECRET = 'pg-source-secret-c81d55';
const tempDir = useTempDir();
let source: StorefrontServer | undefined;
let credentials: DemoCredentials;
const schemas: FreshSchema[] = [];
const used = new Set<string>([SECRET]);

const recording = credentialRecorder(used);

describe.skipIf(skipWithout(POSTGRES, 'The import into PostgreSQL'))('importShop into PostgreSQL', () => {
  beforeAll(async () => {
    const seeded = seed({ seed: 2, products: 300, clientSecret: SECRET });
    credentials = seeded.credentials;
    source = await createServer({ port: 0, data: seeded.dataset });
  }, 60_000);

  afterAll(async () => {
    await source?.close();
    await Promise.all(schemas.map((schema) => schema.drop()));
  });

  it('leaves no schema behind when it fails before writing (a refused sign-in)', async () => {
    const schema = await freshSchema();
    schemas.push(schema);
    const from = { url: source!.baseUrl, clientId: credentials.clientId, clientSecret: 'not-the-secret' };
    const staging = join(await tempDir(), 'staging');
    await expect(importShop({ from, to: schema.url, staging })).rejects.toThrow(
      /refused the app's credentials .*: check --client-id and STOREFRONT_REMOTE_CLIENT_SECRET/,
    );
    const client = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, '') });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT to_regnamespace($1) AS found', [schema.schema]);
      expect(rows[0].found).toBeNull();
    } finally {
      await client.end();
    }
    expect(existsSync(staging)).toBe(false);
  });

  it('writes a schema that a server serves as the source does, with no credential in its rows', async () => {
    const schema = await freshSchema();
    schemas.push(schema);
    const from = { url: source!.baseUrl, clientId: credentials.clientId, clientSecret: SECRET, fetch: recording };
    const staging = join(await tempDir(), 'staging');
    const report = await importShop({ from, to: schema.url, staging });
    expect(report.rows).toMatchObject({ shops: 2, users: 1, apps: 1 });

    const client = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, '') });
    await client.connect();
    try {
      const tables = await client.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
        [schema.schema],
      );
      let text = '';
      for (const { table_name } of tables.rows) {
        const rows = await client.query(`SELECT t::text AS row FROM "${schema.schema}"."${table_name}" t`);
        text += rows.rows.map((row) => row.row).join('\n');
      }
      expect(text).toContain('Northwind Outfitters');
      expect(used.size).toBeGreaterThan(2);
      for (const secret of used) expect(text.includes(secret), `${secret.slice(0, 6)}… stored`).toBe(false);
    } finally {
      await client.end();
    }

    await expect(importShop({ from, to: schema.url, staging })).rejects.toThrow(/already holds data/);

    const copy = await createServer({ port: 0, store: schema.url });
    try {
      const [expected, actual] = await Promise.all([
        adminToken(source!.origin, credentials.clientId, SECRET).then((token) =>
          servedResources(source!.origin, token),
        ),
        adminToken(copy.origin, report.credentials.clientId, report.credentials.clientSecret).then((token) =>
          servedResources(copy.origin, token),
        ),
      ]);
      expect(actual.size).toBeGreaterThan(250);
      expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [path, body] of expected) expect(actual.get(path), path).toEqual(body);
    } finally {
      await copy.close();
    }
  }, 120_000);
});
