/**
 * Issue 51's done-when: a recorded 30-request run of an app (writes, then reads) replays against a shop's data in
 * MSW with the same answers as the reference server over the same data, modulo volatile values (origins, tokens,
 * validator values). The data here is a seeded directory (seed 2, 200 products); an imported shop's directory
 * goes through the same `compareServerAndMock`.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { seed } from '../../src/seed/index.js';
import { createJsonStore } from '../../src/store/json/json-file.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { compareServerAndMock, type SessionCredentials } from './app-session.js';
import { fileHashes } from './file-hashes.js';

const tempDir = useTempDir();

const CREDENTIALS: SessionCredentials = {
  clientId: 'replay-app',
  clientSecret: 'replay-client-secret',
  login: 'demo',
  password: 'replay-password',
};

describe('a recorded app session replayed against the mock over the same data', () => {
  test('gets the answers the reference server gave, request by request', async () => {
    const dir = await tempDir();
    const { dataset } = seed({ seed: 2, products: 200, ...CREDENTIALS });
    const store = await createJsonStore(join(dir, 'db.json'), { sync: false, initial: () => dataset });
    await store.close();
    const before = await fileHashes(dir);

    const { server, mock } = await compareServerAndMock(dir, CREDENTIALS);

    expect(server).toHaveLength(30);
    const statuses = server.map((answer) => answer.status);
    expect(statuses.slice(4, 12)).toEqual([201, 201, 201, 200, 200, 422, 204, 200]);
    expect(statuses).toContain(304);
    // The reads see the writes.
    const theme = server.find((answer) => answer.request === 'GET {origin}/v1/themes/1' && answer.status === 200);
    expect(JSON.stringify(theme?.body)).toContain('partials/replayed.html');
    expect(theme?.body).toMatchObject({ title: 'Replayed production' });
    const events = server.find((answer) => answer.request.startsWith('GET {origin}/v1/events.json'));
    expect(JSON.stringify(events?.body)).toContain('template.created');
    // Request by request first, so that a difference names its request.
    for (const [index, answer] of server.entries()) expect(mock[index], answer.request).toEqual(answer);
    expect(mock).toHaveLength(30);
    expect(await fileHashes(dir)).toEqual(before);
  }, 60_000);
});
