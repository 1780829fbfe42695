/**
 * Two servers on a private PostgreSQL cluster restarted 4 times under writes: every process stays up, no request
 * gets a 500 or a cut connection, writes are taken again within 10 s of the database coming back, and every
 * acknowledged write is in the database afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES, type PrivateCluster, privateCluster } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import {
  adminToken,
  answeringAgain,
  lostWrites,
  type Server,
  startServers,
  stopServers,
  unpairedEvents,
  writeLoad,
} from './write-load.js';

const skip = skipWithout(POSTGRES, 'The PostgreSQL restart test');
const SCHEMA = 'restarts';

describe.skipIf(skip)('the database restarted under two servers', () => {
  let cluster: PrivateCluster;
  let url: string;
  let servers: Server[] = [];

  beforeAll(async () => {
    cluster = await privateCluster();
    url = `${cluster.url}?schema=${SCHEMA}`;
    servers = await startServers(url, 2);
  }, 120_000);
  afterAll(async () => {
    await stopServers(servers);
    await cluster?.close();
  });

  it('loses no acknowledged write through 4 restarts, and takes writes again within 10 s of each', async () => {
    const token = await adminToken(servers[0]!.origin);
    const load = writeLoad(servers, token);
    const recoveries: number[] = [];
    try {
      for (let round = 0; round < 4; round++) {
        await answeringAgain(servers, load.outcomes, performance.now());
        await cluster.stop();
        // Down long enough for every server to notice: requests meanwhile are refused with a 503.
        await new Promise((resolve) => setTimeout(resolve, 500));
        await cluster.start();
        recoveries.push(await answeringAgain(servers, load.outcomes, performance.now()));
      }
    } finally {
      await load.stop();
    }
    const { outcomes } = load;
    expect({ errors: outcomes.errors, cut: outcomes.cut }).toEqual({ errors: [], cut: 0 });
    expect(outcomes.statuses[503]).toBeGreaterThan(0);
    expect(Object.keys(outcomes.statuses).filter((status) => status !== '201' && status !== '503')).toEqual([]);
    expect(Math.max(...recoveries)).toBeLessThan(10_000);
    expect(servers.map(({ cli }) => cli.child.exitCode)).toEqual([null, null]);
    expect(await lostWrites(url, SCHEMA, outcomes)).toEqual([]);
    // Each write and its event commit together: none without the other.
    expect(await unpairedEvents(url, SCHEMA)).toEqual([]);
  }, 300_000);
});
