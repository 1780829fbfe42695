/**
 * `storefront-server --workers 2`: the listening socket outlives every worker (issue 47). Both workers killed at
 * once (a poison request, an OOM kill), or one killed while its sibling is still starting: a request sent then on a
 * new connection waits in the kernel's queue for the next worker and is answered, never reset or refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { type CliProcess, startCli } from '../helpers/cli-process.js';
import { getOnNewConnection, type Outcome } from '../helpers/new-connection.js';
import { tokenRequest } from '../helpers/test-server.js';

const DEMO = { clientId: 'socket-app', clientSecret: 'socket-secret-0123456789' };
const skip = skipWithout(POSTGRES, 'The test of a fleet whose workers all die');
const ROUNDS = 5;
/** Requests sent right after each round's kills, each on a connection of its own. */
const BURST = 4;
/** What the issue promises for a request sent while no worker serves. */
const ANSWER_WITHIN_MS = 5000;

describe.skipIf(skip)('two workers, both killed', () => {
  let schema: FreshSchema;
  let cli: CliProcess;
  let origin: string;
  let authorization: string;
  let pids: number[];
  /** How much of stdout the rounds have read. */
  let seen = 0;

  beforeAll(async () => {
    schema = await freshSchema();
    cli = startCli([
      ...['--store', schema.url, '--workers', '2', '--port', '0', '--products', '10'],
      ...['--demo-client-id', DEMO.clientId, '--demo-client-secret', DEMO.clientSecret],
    ]);
    origin = (await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    pids = await waitForPids();
    const response = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, DEMO);
    authorization = `Bearer ${((await response.json()) as { access_token: string }).access_token}`;
  });
  afterAll(async () => {
    if (cli && cli.child.exitCode === null) {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
    await schema?.drop();
  });

  /** The pids of the two workers serving, from the primary's lines since the last call. */
  async function waitForPids(): Promise<number[]> {
    const serving: number[] = [];
    for (;;) {
      const fresh = cli.stdout().slice(seen);
      const line = /2 workers listening \(pids (\d+), (\d+)\)|worker (\d+) listening[^\n]*\((\d) of 2 workers\)/.exec(
        fresh,
      );
      if (line) {
        seen += line.index + line[0].length;
        if (line[1]) return [Number(line[1]), Number(line[2])];
        serving.push(Number(line[3]));
        if (line[4] === '2') return serving.slice(-2);
        continue;
      }
      if (cli.child.exitCode !== null) throw new Error(`the fleet exited:\n${cli.stdout()}\n${cli.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const burst = () =>
    Promise.all(
      Array.from({ length: BURST }, () =>
        getOnNewConnection(`${origin}/v1/shops/1/theme.json`, { authorization }, ANSWER_WITHIN_MS),
      ),
    );

  function expectAllAnswered(outcomes: Outcome[], what: string): void {
    const unanswered = outcomes.filter((o) => !(o.status !== undefined && o.status < 300));
    const slowest = Math.max(...outcomes.map((o) => o.ms));
    console.log(
      `${outcomes.length - unanswered.length} of ${outcomes.length} answered ${what} (slowest ${slowest.toFixed(0)} ms)`,
    );
    expect(unanswered).toEqual([]);
  }

  it(`answers every request sent right after both workers are killed at once, ${ROUNDS} rounds`, async () => {
    const outcomes: Outcome[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      outcomes.push(...(await burst()));
      pids = await waitForPids();
    }
    expectAllAnswered(outcomes, `after ${ROUNDS} rounds of both workers killed`);
  }, 300_000);

  it('answers every request sent when a worker is killed while its sibling is still starting', async () => {
    const outcomes: Outcome[] = [];
    for (let round = 0; round < 3; round++) {
      const [first, second] = pids as [number, number];
      process.kill(first, 'SIGKILL');
      // Its replacement is starting (forked at once, opening the database) when the other one dies.
      await cli.waitFor(new RegExp(`worker ${first} exited`));
      process.kill(second, 'SIGKILL');
      outcomes.push(...(await burst()));
      pids = await waitForPids();
    }
    expectAllAnswered(outcomes, 'with the only serving worker killed while its sibling starts');
  }, 300_000);
});
