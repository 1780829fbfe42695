/**
 * The README's first command as a user runs it: `npm start` in the repository, stopped by a signal to the `npm`
 * process it started. npm forwards the signal to its script's process only; the server must be that process (not
 * a grandchild behind a shell or a loader), or it outlives npm and keeps the port.
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { useTempDir } from '../../server/test/helpers/temp-dir.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const tempDir = useTempDir();

/** Whether something accepts connections on `port` of the loopback interface. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => resolve(socket.destroy() !== undefined));
    socket.once('error', () => resolve(false));
  });
}

it('npm start serves, and a SIGTERM to npm stops the server and frees the port', async () => {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('STOREFRONT_')) delete env[name];
  const data = join(await tempDir(), 'db.json');
  const npm = spawn('npm', ['start', '--', '--port', '0', '--data', data, '--products', '20'], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  npm.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
  const port = await new Promise<number>((resolve, reject) => {
    npm.stdout.on('data', () => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    exited.then(() => reject(new Error(`npm start exited before listening:\n${out}`)));
  });
  expect(await listening(port)).toBe(true);

  npm.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(out).toContain('Stopped');
  expect(await listening(port)).toBe(false);
}, 60_000);
