/**
 * The rate limit held by a fleet: two real `storefront-server --store postgres://… --rate-limit` processes on a
 * schema of their own count one quota per app and user, whichever of them a request reaches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshSchema, freshSchema, POSTGRES } from '../../../test/support/postgres-server.js';
import { skipWithout } from '../../../test/support/requirement.js';
import { type CliProcess, startCli } from '../helpers/cli-process.js';
import { tokenRequest } from '../helpers/test-server.js';

const DEMO = { clientId: 'limit-app', clientSecret: 'limit-secret-0123456789' };
const QUOTA = 40;

describe.skipIf(skipWithout(POSTGRES, 'The rate limit across processes'))('rate limit across two processes', () => {
  let schema: FreshSchema;
  const servers: CliProcess[] = [];
  const origins: string[] = [];

  beforeAll(async () => {
    schema = await freshSchema();
    for (let i = 0; i < 2; i++) {
      const cli = startCli([
        ...['--store', schema.url, '--port', '0', '--quiet', '--products', '3'],
        ...['--demo-client-id', DEMO.clientId, '--demo-client-secret', DEMO.clientSecret],
        // An hour's window: the test never meets its end.
        ...['--rate-limit', `${QUOTA}/1h`],
      ]);
      origins.push((await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!);
      servers.push(cli);
    }
  }, 60_000);

  afterAll(async () => {
    for (const { child } of servers) if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.all(servers.map(({ exited }) => exited));
    await schema?.drop();
  });

  async function token(): Promise<string> {
    const response = await tokenRequest(origins[0]!, { grant_type: 'client_credentials', scope: 'admin' }, DEMO);
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  it('lets the quota through, all requests together, whichever process answers, and refuses the rest', async () => {
    const bearer = await token();
    // Twice the quota at once, spread over both: each would let the whole quota through if it counted alone.
    const responses = await Promise.all(
      Array.from({ length: QUOTA * 2 }, (_, i) =>
        fetch(`${origins[i % 2]}/v1/`, { headers: { authorization: `Bearer ${bearer}` } }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(QUOTA);
    expect(statuses.filter((status) => status === 429)).toHaveLength(QUOTA);
    // Each remaining count was handed out once: the database ordered them.
    const remaining = responses
      .filter((response) => response.status === 200)
      .map((response) => Number(/;r=(\d+);/.exec(response.headers.get('ratelimit') ?? '')?.[1]))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: QUOTA }, (_, i) => i));
    await Promise.all(responses.map((response) => response.body?.cancel()));
  });

  it('refuses a new token of the spent app and user on both processes: the quota is the pair’s, not the token’s', async () => {
    const bearer = await token();
    for (const origin of origins) {
      const response = await fetch(`${origin}/v1/`, { headers: { authorization: `Bearer ${bearer}` } });
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
