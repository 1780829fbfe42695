/**
 * The reference server's own bin in a process of its own, over a JSON data file, so that a test can kill it
 * (SIGKILL, as a crash does) while the CLI is mid-request, and start it again on the same port and data.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../test/support/free-port.js';
import { environment } from './cli.js';
import { DEMO } from './server.js';

/** The server's built bin (built with the themes bin: server/test/helpers/build-bin.ts). */
const SERVER_CLI = fileURLToPath(new URL('../../../server/dist/cli.js', import.meta.url));

export interface ServerProcess {
  origin: string;
  /** The variables with which `login --client-credentials` reaches it. */
  env: Record<string, string>;
  /** The API writes (PUT, POST, DELETE under /v1/) the running process logged. */
  writes(): string[];
  /** SIGKILL: no request finishes, no response goes out. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the bin on a free port with a data file in `dir` and the tests' demo app. */
export async function startServerProcess(dir: string): Promise<ServerProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const args = ['--port', String(port), '--data', join(dir, 'db.json'), '--products', '3'];
  args.push('--demo-client-id', DEMO.clientId, '--demo-client-secret', DEMO.clientSecret);
  let child: ChildProcess;
  let log = '';
  const start = async () => {
    log = '';
    child = spawn(process.execPath, [SERVER_CLI, ...args], {
      // The runner's environment without STOREFRONT_* (a flag's variable would win).
      env: environment({ config: dir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => {
      log += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', () => log.includes('listening on') && resolve());
      child.once('exit', (code) => reject(new Error(`storefront-server exited (${code}) before listening: ${log}`)));
    });
  };
  const exit = () =>
    new Promise((resolve) =>
      child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(null),
    );
  await start();
  return {
    origin,
    env: { STOREFRONT_URL: origin, STOREFRONT_CLIENT_ID: DEMO.clientId, STOREFRONT_CLIENT_SECRET: DEMO.clientSecret },
    writes: () => log.split('\n').filter((line) => /^(PUT|POST|DELETE) \/v1\//.test(line)),
    async kill() {
      child.kill('SIGKILL');
      await exit();
    },
    restart: start,
    async stop() {
      child.kill('SIGTERM');
      await exit();
    },
  };
}
