/**
 * A real `redis-server` (Debian's package; `.ci/run` installs it when missing) on a free loopback port, for the
 * tests of the Redis stores: started and stopped by the test itself, in memory only, no file written.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A running redis-server. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGKILL: an outage, as a crash would cause); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** Whether a `redis-server` binary can be run here. */
export function haveRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a redis-server on a free port and resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
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
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start };
}
