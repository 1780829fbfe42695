/**
 * `storefront-server --workers 2 --store postgres://…`: while the workers it starts in place of a killed one fail
 * to start (here: the schema says a newer server wrote it), the primary goes on trying (with the waits of
 * `cluster/restart-delay.ts`, checked in `cluster-restart-delay.test.ts`) and says so once, not once per try; the
 * fleet is whole again as soon as one starts, and the other worker answers every request meanwhile.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { type CliProcess, startCli } from '../helpers/cli-process.js';
import { getOnNewConnection, type Outcome } from '../helpers/new-connection.js';

const skip = skipWithout(POSTGRES, 'The worker restart test');
/** Failed starts to see before the cause goes away. */
const FAILURES = 4;
const FROM_THE_FUTURE = 1_000_000;

describe.skipIf(skip)('a replacement worker that fails to start', () => {
  let schema: FreshSchema;
  let cli: CliProcess;
  let db: pg.Client;

  beforeAll(async () => {
    schema = await freshSchema();
    db = new pg.Client({ connectionString: schema.url.replace(/\?.*$/, '') });
    await db.connect();
  });
  afterAll(async () => {
    if (cli && cli.child.exitCode === null) {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
    await db?.end();
    await schema?.drop();
  });

  it('is tried again until one serves, reported once for all tries, while the other worker answers every request', async () => {
    cli = startCli(['--store', schema.url, '--workers', '2', '--port', '0', '--products', '10']);
    const [victim] = (await cli.waitFor(/2 workers listening \(pids (\d+), (\d+)\)/)).slice(1).map(Number);
    const origin = (await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    const migrations = `"${schema.schema}".migrations`;
    await db.query(`INSERT INTO ${migrations} (version, name) VALUES ($1, 'from a newer server')`, [FROM_THE_FUTURE]);

    // Each worker that fails says why on the fleet's stderr: one line per failed start.
    const failedStarts = () => cli.stderr().split(`is at version ${FROM_THE_FUTURE}`).length - 1;
    const failed = new Promise<void>((resolve) => {
      const check = () => {
        if (failedStarts() < FAILURES) return;
        cli.child.stderr!.off('data', check);
        resolve();
      };
      cli.child.stderr!.on('data', check);
    });
    process.kill(victim!, 'SIGKILL');
    await cli.waitFor(new RegExp(`worker ${victim} exited \\(SIGKILL\\); starting another`));
    // The other worker answers meanwhile.
    const answers: Outcome[] = [];
    let failing = true;
    const reader = (async () => {
      while (failing) answers.push(await getOnNewConnection(`${origin}/health`, {}, 10_000));
    })();
    await failed;
    failing = false;
    await reader;
    await db.query(`DELETE FROM ${migrations} WHERE version = $1`, [FROM_THE_FUTURE]);

    const [, starts] = await cli.waitFor(/worker \d+ listening after (\d+) starts \(2 of 2 workers\)/);
    // Every failed start was one the primary counted, and it said so once.
    expect(Number(starts)).toBe(failedStarts() + 1);
    expect(cli.stderr().split('before it served; starting another in').length - 1).toBe(1);
    const kinds = [...new Set(answers.map((answer) => answer.status ?? answer.error))];
    console.log(`${failedStarts()} failed starts; ${answers.length} requests meanwhile, answered: ${kinds}`);
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    expect((await getOnNewConnection(`${origin}/health`, {}, 10_000)).status).toBe(200);
  }, 300_000);
});
