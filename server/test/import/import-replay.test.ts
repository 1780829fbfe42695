/**
 * Issue 51's done-when: a recorded 30-request run of an app (writes, then reads that see them) against a shop
 * replays against that shop's imported copy in MSW with the same answers, modulo volatile values (origins,
 * tokens, preview keys, validator values) and the credentials the import made.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createServer } from '../../src/create-server.js';
import { importShop } from '../../src/import/import-shop.js';
import { seed } from '../../src/seed/index.js';
import { createJsonStore } from '../../src/store/json/json-file.js';
import { readDataset } from '../../src/store/read-dataset.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { recordMock, recordServer, type SessionCredentials } from '../msw/app-session.js';

const tempDir = useTempDir();

const SOURCE: SessionCredentials = {
  clientId: 'source-app',
  clientSecret: 'source-client-secret',
  login: 'demo',
  password: 'source-password',
};

describe('an app session recorded against a shop', () => {
  test('replays against its imported copy in the mock with the same answers', async () => {
    const dir = await tempDir();
    const { dataset } = seed({ seed: 2, products: 200, ...SOURCE });
    // The user administers every shop, so that the copy holds every row and new rows get the same ids on both sides.
    const demo = dataset.users.find((user) => user.login === SOURCE.login)!;
    for (const shop of dataset.shops) shop.owner_id = demo.id;
    const store = await createJsonStore(join(dir, 'db.json'), { sync: false, initial: () => dataset });
    await store.close();

    // The copy is taken before the session changes anything, as a team would take it.
    const source = await createServer({ port: 0, data: dataset, explorer: false });
    const copy = join(await tempDir(), 'shop');
    let imported: Awaited<ReturnType<typeof importShop>>;
    try {
      imported = await importShop({
        from: { url: source.baseUrl, ...SOURCE },
        to: copy,
        publicUrl: 'http://replayed-shop.test',
      });
    } finally {
      await source.close();
    }

    const recorded = await recordServer(dir, SOURCE);
    const replayed = await recordMock(await readDataset(copy), {
      ...imported.credentials,
      password: 'msw-demo-password',
    });

    expect(recorded).toHaveLength(30);
    for (const [index, answer] of recorded.entries()) expect(replayed[index], answer.request).toEqual(answer);
    expect(replayed).toHaveLength(30);
  }, 120_000);
});
