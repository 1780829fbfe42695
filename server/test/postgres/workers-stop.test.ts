/**
 * `storefront-server --workers 2` stopped as a terminal's Ctrl-C stops it: SIGINT to the whole process group (the
 * primary and its workers), then again (npm's forward of it). The fleet stops once, the primary says so once, in
 * words true of PostgreSQL, and exits 0. While it ran, its request log named the worker that answered each request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { type CliProcess, startCli } from '../helpers/cli-process.js';
import { heldRequest } from '../helpers/held-request.js';

const DEMO = { clientId: 'stop-fleet-app', clientSecret: 'stop-fleet-secret-0123456789' };
const skip = skipWithout(POSTGRES, 'The test of a fleet’s stop');

describe.skipIf(skip)('a fleet stopped by Ctrl-C', () => {
  let schema: FreshSchema;
  let cli: CliProcess | undefined;

  beforeAll(async () => {
    schema = await freshSchema();
  });
  afterAll(async () => {
    if (cli && cli.child.exitCode === null) {
      process.kill(-cli.child.pid!, 'SIGKILL');
      await cli.exited;
    }
    await schema?.drop();
  });

  it('names the answering worker in its log, stops once, and says so once, in words true of the database', async () => {
    cli = startCli(
      [
        ...['--store', schema.url, '--workers', '2', '--port', '0', '--products', '5'],
        ...['--demo-client-id', DEMO.clientId, '--demo-client-secret', DEMO.clientSecret],
      ],
      { detached: true },
    );
    const origin = (await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    const pids = (await cli.waitFor(/2 workers listening \(pids (\d+), (\d+)\)/)).slice(1);
    const { answered } = await heldRequest(origin, DEMO, 2);
    const logged = await cli.waitFor(/^(.*)GET \/v1\/ 200/m);
    expect(pids.map((pid) => `worker ${pid}: `)).toContain(logged[1]);

    process.kill(-cli.child.pid!, 'SIGINT');
    await cli.waitFor(/SIGINT: stopping the workers/);
    process.kill(-cli.child.pid!, 'SIGINT');
    expect(await cli.exited).toBe(0);
    expect(await answered).toBe(200);
    const out = cli.stdout();
    expect(out.match(/stopping|finishing/g)).toHaveLength(1);
    const stopped = out.match(/^.*Stopped.*$/gm);
    expect(stopped).toHaveLength(1);
    expect(stopped![0]).toMatch(/database/);
    expect(stopped![0]).not.toMatch(/disk/);
  }, 120_000);
});
