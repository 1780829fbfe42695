/**
 * `storefront-server --workers 2 --store postgres://…`: `kill -9` of one worker in the middle of writes loses no
 * write the fleet acknowledged, the other worker goes on answering meanwhile, and the primary starts a new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { createPostgresStore } from '../../src/store/postgres/postgres.js';
import { type CliProcess, startCli } from '../helpers/cli-process.js';
import { tokenRequest } from '../helpers/test-server.js';

const DEMO = { clientId: 'kill-app', clientSecret: 'kill-secret-0123456789' };
const skip = skipWithout(POSTGRES, 'The worker kill test');

describe.skipIf(skip)('two workers, one killed with SIGKILL during writes', () => {
  let schema: FreshSchema;
  let cli: CliProcess;

  beforeAll(async () => {
    schema = await freshSchema();
  });
  afterAll(async () => {
    if (cli && cli.child.exitCode === null) {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
    await schema?.drop();
  });

  it('loses no acknowledged write, keeps answering, and replaces the worker', async () => {
    cli = startCli([
      '--store',
      schema.url,
      '--workers',
      '2',
      '--port',
      '0',
      '--products',
      '10',
      '--demo-client-id',
      DEMO.clientId,
      '--demo-client-secret',
      DEMO.clientSecret,
    ]);
    const pids = (await cli.waitFor(/2 workers listening \(pids (\d+), (\d+)\)/)).slice(1).map(Number);
    const origin = cli.stdout().match(/listening on (http:\/\/\S+)/)![1]!;
    const tokenResponse = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, DEMO);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };

    /** Acknowledged creations: id → file name. */
    const acknowledged = new Map<string, string>();
    let killedAt = Number.POSITIVE_INFINITY;
    let answeredAfterKill = 0;
    let failed = 0;
    let stop = false;
    let sent = 0;
    const writer = async () => {
      while (!stop) {
        const name = `kill-${sent++}.html`;
        try {
          const response = await fetch(`${origin}/v1/themes/1/templates`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ file_name: name, body: `<p>${name}</p>` }),
            signal: AbortSignal.timeout(5000),
          });
          const body = (await response.json()) as { id: string };
          if (response.status !== 201) throw new Error(`${response.status}`);
          acknowledged.set(body.id, name);
          if (Date.now() > killedAt) answeredAfterKill++;
        } catch {
          // A request in flight on the killed worker: never acknowledged.
          failed++;
        }
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(acknowledged.size).toBeGreaterThan(0);
    killedAt = Date.now();
    process.kill(pids[0]!, 'SIGKILL');
    await cli.waitFor(new RegExp(`worker ${pids[0]} exited \\(SIGKILL\\); worker \\d+ replaces it`));
    await new Promise((resolve) => setTimeout(resolve, 400));
    console.log('stopping');
    stop = true;
    await Promise.all(writers);

    // The other worker answered while the killed one was being replaced.
    expect(answeredAfterKill).toBeGreaterThan(10);
    expect(failed).toBeLessThan(sent / 2);
    // Every acknowledged creation is there, read through the fleet (whichever worker answers).
    for (const [id, name] of acknowledged) {
      const read = await fetch(`${origin}/v1/themes/1/templates/${id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect({ id, status: read.status, name: ((await read.json()) as { file_name?: string }).file_name }).toEqual({
        id,
        status: 200,
        name,
      });
    }
    console.log('checked via API', acknowledged.size, failed, answeredAfterKill);
    // And in the database itself, as a new process would load it.
    const store = await createPostgresStore(schema.url);
    try {
      for (const [id, name] of acknowledged) expect(store.get('templates', id)?.file_name).toBe(name);
    } finally {
      await store.close();
    }
  }, 60_000);
});
