/**
 * A real `redis-server` (Debian's package; `.ci/run` installs it when missing) on a free loopback port, for the
 * tests of the Redis stores: started and stopped by the test itself, in memory only, no file written (but the
 * node table of a cluster, in a temporary folder removed on `stop()`).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { onFreePorts } from './free-port.js';
import { requirement } from './requirement.js';

/** A running redis-server. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGKILL: an outage, as a crash would cause); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A `redis-server` binary this machine can run. */
export const REDIS_SERVER = requirement(
  'redis-server',
  'Install it: apt-get install redis-server (npm test does it when it may).',
  () => {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  },
);

/**
 * Starts a redis-server on a free port and resolves once it accepts connections. `cluster`: as a cluster of this
 * one node, holding every slot, for the cluster clients (resolves once the cluster is up; its `stop()` is final).
 * A cluster node also listens on a bus port, also a free one. When a port was taken meanwhile by another program,
 * it starts again on new ones.
 */
export function startRedisServer({ cluster = false } = {}): Promise<RedisServer> {
  return onFreePorts(cluster ? 2 : 1, ([port, bus]) => redisServerOn(port!, bus));
}

/** A redis-server on `port` (`bus`: as a cluster whose bus is on that port). */
async function redisServerOn(port: number, bus: number | undefined): Promise<RedisServer> {
  const dir = bus ? mkdtempSync(join(tmpdir(), 'redis-cluster-')) : undefined;
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
      // A lone node knows no address of its own to give clients (it learns it from its peers): say it.
      if (dir) {
        args.push('--cluster-enabled', 'yes', '--cluster-port', String(bus), '--cluster-announce-ip', '127.0.0.1');
        args.push('--dir', dir);
      }
      const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      let out = '';
      const onData = (chunk: Buffer) => {
        out += chunk;
        if (out.includes('Ready to accept connections')) {
          proc.stdout.off('data', onData);
          proc.stdout.resume();
          resolve();
        }
      };
      proc.stdout.on('data', onData);
      // Its output says why (`Address already in use` when a port was taken: startRedisServer tries others).
      proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${out}`)));
    });
  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGKILL');
    await exited;
  };
  const remove = () => dir && rmSync(dir, { recursive: true, force: true });
  try {
    await start();
    if (dir) await assignAllSlots(port);
  } catch (error) {
    await stop();
    remove();
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      await stop();
      remove();
    },
    start,
  };
}

/** Gives the one node of a new cluster every slot, and waits until it says that the cluster is up. */
async function assignAllSlots(port: number): Promise<void> {
  const cli = (...args: string[]) => execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });
  cli('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
  for (let tries = 0; !cli('CLUSTER', 'INFO').includes('cluster_state:ok'); tries++) {
    if (tries === 100) throw new Error(`the cluster on port ${port} did not come up`);
    await sleep(50);
  }
}
