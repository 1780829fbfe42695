/**
 * A real PgBouncer for the tests of the PostgreSQL store through a connection pooler: Debian's `pgbouncer`
 * (`scripts/system-deps.sh` installs it), started privately in a temporary folder on a free loopback port, in
 * front of the PostgreSQL the other tests use ({@link postgresUrl}: the machine's, or the private cluster), in one
 * pooling mode. As root it runs as the `postgres` user, as the private cluster does (PgBouncer refuses root).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';
import { postgresUrl, postgresUser } from './postgres-server.js';
import { requirement } from './requirement.js';

/** Debian installs it outside a user's PATH. */
const BINARY = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => existsSync(path)) ?? 'pgbouncer';

/** Debian's `pgbouncer` binary. */
export const PGBOUNCER = requirement(
  'pgbouncer',
  'Install it: apt-get install pgbouncer (npm test does it when it may).',
  () => {
    execFileSync(BINARY, ['--version'], { stdio: 'pipe' });
    return true;
  },
);

/** How PgBouncer lends its server connections: for a client's whole session, or for one transaction. */
export type PoolMode = 'session' | 'transaction';

/** How a test's servers reach the database: directly, or through a PgBouncer in each pooling mode. */
export const ROUTES: readonly { route: string; mode?: PoolMode }[] = [
  { route: 'directly' },
  { route: 'through PgBouncer, transaction pooling', mode: 'transaction' },
  { route: 'through PgBouncer, session pooling', mode: 'session' },
];

/** A private PgBouncer. */
export interface Pgbouncer {
  readonly mode: PoolMode;
  /** `url` (a URL of the tests' PostgreSQL, schema parameter and all) through this PgBouncer. */
  through(url: string): string;
  /** Stops it and removes its files. */
  close(): Promise<void>;
}

/** Starts a PgBouncer in `mode` in front of the tests' PostgreSQL; resolves once it answers. */
export async function startPgbouncer(mode: PoolMode): Promise<Pgbouncer> {
  const database = new URL(await postgresUrl());
  const dir = mkdtempSync(join(tmpdir(), 'storefront-pgbouncer-'));
  const port = await freePort();
  const user = decodeURIComponent(database.username || 'postgres');
  // Trust both ways: the tests' PostgreSQL trusts loopback, and so does this PgBouncer (the user must still be
  // listed). Pools big enough for the servers of a test (4 store and 8 claim connections each) and its own.
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${database.hostname} port=${database.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `pool_mode = ${mode}`,
      'max_client_conn = 400',
      'default_pool_size = 40',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const asUser = userInfo().uid === 0 ? postgresUser() : undefined;
  if (asUser)
    for (const name of ['', 'userlist.txt', 'pgbouncer.ini']) chownSync(join(dir, name), asUser.uid, asUser.gid);
  const child: ChildProcess = spawn(BINARY, [join(dir, 'pgbouncer.ini')], { ...(asUser ?? {}), stdio: 'ignore' });
  const kill = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', kill);
  const through = (url: string) => {
    const routed = new URL(url);
    routed.hostname = '127.0.0.1';
    routed.port = String(port);
    return routed.href;
  };
  for (let tries = 0; ; tries++) {
    const client = new pg.Client({ connectionString: through(database.href) });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch (error) {
      if (tries === 100 || child.exitCode !== null) {
        kill();
        throw new Error(`the private PgBouncer (${mode}) did not start: ${error}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    mode,
    through,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // SIGINT: PgBouncer's safe shutdown would wait for its clients; the tests' are gone or do not matter.
        child.kill('SIGTERM');
        await exited;
      }
      process.off('exit', kill);
      kill();
    },
  };
}
