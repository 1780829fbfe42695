/**
 * A real PostgreSQL for the tests of the PostgreSQL store: the machine's own when one answers (the URL in
 * `STOREFRONT_TEST_DATABASE_URL`, else `postgres://postgres@127.0.0.1:5432/test`, what CI's machines run), otherwise
 * a private cluster of Debian's `postgresql` binaries (`scripts/system-deps.sh` installs them) on a free loopback
 * port in a temporary folder, started once per test process and stopped at its exit. Each caller gets a schema of
 * its own ({@link freshSchema}), dropped when it is done, so that test files run in parallel on one database.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';
import { requirement } from './requirement.js';

const MACHINE_URL = process.env.STOREFRONT_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Debian's binaries: `/usr/lib/postgresql/<major>/bin`, the newest major. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : join(root, majors[0], 'bin');
}

/** Whether the machine's PostgreSQL answers (`pg_isready`, run once). */
function machineAnswers(): boolean {
  const url = new URL(MACHINE_URL);
  try {
    execFileSync('pg_isready', ['-q', '-h', url.hostname, '-p', url.port || '5432', '-t', '2'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A PostgreSQL this machine runs, or the binaries to start one. */
export const POSTGRES = requirement(
  'PostgreSQL',
  'Install it: apt-get install postgresql (npm test does it when it may), or point STOREFRONT_TEST_DATABASE_URL at one.',
  () => {
    if (machineAnswers()) return true;
    if (binDir()) return true;
    throw new Error(`nothing answers at ${MACHINE_URL} and no initdb under /usr/lib/postgresql/*/bin`);
  },
);

let server: Promise<string> | undefined;

/** The database's URL: the machine's, or a private cluster's started now (once per process). */
export function postgresUrl(): Promise<string> {
  server ??= machineAnswers() ? Promise.resolve(MACHINE_URL) : startPrivateCluster();
  return server;
}

/** A PostgreSQL cluster of this test process, which a test may restart under its servers. */
export interface PrivateCluster {
  /** The cluster's `postgres` database. */
  readonly url: string;
  /** Stops the server (`SIGINT`: PostgreSQL's fast shutdown, which ends every session) and waits for its exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  close(): Promise<void>;
}

/**
 * A cluster of Debian's binaries on a free loopback port in a temporary folder. initdb and postgres refuse to run
 * as root: as root, the cluster belongs to the `postgres` user the package creates. Trust authentication on
 * loopback only; no fsync (a test database), nothing kept after the process.
 */
export async function privateCluster(): Promise<PrivateCluster> {
  const bin = binDir();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql/*/bin');
  const dir = mkdtempSync(join(tmpdir(), 'storefront-pg-'));
  const asUser = userInfo().uid === 0 ? postgresUser() : undefined;
  if (asUser) {
    chownSync(dir, asUser.uid, asUser.gid);
    chmodSync(dir, 0o700);
  }
  execFileSync(join(bin, 'initdb'), ['-D', dir, '-U', 'postgres', '-A', 'trust', '--no-sync'], {
    ...(asUser ?? {}),
    stdio: 'pipe',
  });
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | undefined;
  const kill = () => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', kill);
  const start = async () => {
    const started = spawn(
      join(bin, 'postgres'),
      ['-D', dir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
      { ...(asUser ?? {}), stdio: 'ignore' },
    );
    child = started;
    for (let tries = 0; ; tries++) {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.end();
        return;
      } catch (error) {
        if (tries === 100 || started.exitCode !== null)
          throw new Error(`the private PostgreSQL did not start: ${error}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGINT');
    await exited;
  };
  await start();
  return {
    url,
    start,
    stop,
    async close() {
      await stop();
      process.off('exit', kill);
      kill();
    },
  };
}

async function startPrivateCluster(): Promise<string> {
  return (await privateCluster()).url;
}

/** The `postgres` user the Debian package creates, which the private servers run as when the tests run as root. */
export function postgresUser(): { uid: number; gid: number } {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('running as root, and there is no postgres user to run the private PostgreSQL as');
  }
}

/** A schema of its own on the test database. */
export interface FreshSchema {
  /** The database's URL with `?schema=<name>`, what `--store` takes. */
  readonly url: string;
  readonly schema: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

let counter = 0;

/** A new, empty schema name on the test database (the store creates it); `drop()` removes it. */
export async function freshSchema(): Promise<FreshSchema> {
  const base = await postgresUrl();
  const schema = `t${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  return {
    url: url.href,
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
