/**
 * The README's first command as a user runs it: `npm start` in the repository, stopped by a signal to the `npm`
 * process it started. npm forwards the signal to its script's process only; the server must be that process (not
 * a grandchild behind a shell or a loader), or it outlives npm and keeps the port. Ctrl-C in a terminal signals
 * npm and the server both (their process group), and npm forwards its SIGINT: the server gets two and stops once.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { heldRequest } from '../../server/test/helpers/held-request.js';
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

it('Ctrl-C on npm start, once or twice (SIGINT to the process group), stops the server once, says so once, and leaves no lock', async () => {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('STOREFRONT_')) delete env[name];
  const dir = await tempDir();
  const demo = { clientId: 'ctrl-c-app', clientSecret: 'ctrl-c-secret-0123456789' };
  const args = ['--port', '0', '--data', join(dir, 'db.json'), '--products', '5'];
  const npm = spawn(
    'npm',
    ['start', '--', ...args, '--demo-client-id', demo.clientId, '--demo-client-secret', demo.clientSecret],
    { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let out = '';
  npm.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
  const origin = await new Promise<string>((resolve, reject) => {
    npm.stdout.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match && out.includes('curl -s -H')) resolve(match[1]!);
    });
    exited.then(() => reject(new Error(`npm start exited before listening:\n${out}`)));
  });
  // A PUT first, so that the held one needs no module that is not loaded yet: under `npm start` tsx compiles each
  // module at its first import with an esbuild process of the same process group, which the terminal's SIGINT stops
  // too (docs/server.md, "Stopping").
  expect(await (await heldRequest(origin, demo, 0)).answered).toBe(200);
  // In flight during the stop, so that npm's forwarded SIGINT arrives while the server is stopping.
  const { answered } = await heldRequest(origin, demo, 2);
  process.kill(-npm.pid!, 'SIGINT');
  // npm's forward may come with the terminal's signal (the kernel then delivers one) or after it; after it for sure
  // here, and a second Ctrl-C is the same.
  await new Promise<void>((resolve) => {
    const check = () => {
      if (!out.includes('finishing in-flight')) return;
      npm.stdout.off('data', check);
      resolve();
    };
    npm.stdout.on('data', check);
    check();
  });
  process.kill(-npm.pid!, 'SIGINT');
  expect(await exited).toBe(0);
  expect(await answered).toBe(200);
  expect(out.match(/^Stopped: .*$/gm)).toEqual(['Stopped: writes are on disk and the port is free.']);
  expect((await readdir(dir)).filter((name) => name.includes('lock'))).toEqual([]);
}, 60_000);
