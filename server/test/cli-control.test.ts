/** `storefront-server --control`: the banner prints the control API and its token, which then opens it. */
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type CliProcess, startCli } from './helpers/cli-process.js';
import { useTempDir } from './helpers/temp-dir.js';

const tempDir = useTempDir();
let cli: CliProcess | undefined;
afterEach(async () => {
  if (cli && cli.child.exitCode === null) cli.child.kill('SIGTERM');
  await cli?.exited;
});

test('the banner names the control API and its token', async () => {
  const dir = await tempDir();
  cli = startCli(['--data', join(dir, 'db.json'), '--port', '0', '--quiet', '--products', '2', '--control']);
  const url = (await cli.waitFor(/Control API: +(\S+)/))[1]!;
  const token = (await cli.waitFor(/Control token: +(\S+)/))[1]!;
  expect((await fetch(url)).status).toBe(401);
  const home = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  expect(home.status).toBe(200);
  expect(((await home.json()) as { _class: string[] })._class).toEqual(['sandbox']);
});

test('without --control the banner says nothing of it and the path is a 404', async () => {
  const dir = await tempDir();
  cli = startCli(['--data', join(dir, 'db.json'), '--port', '0', '--quiet', '--products', '2']);
  const origin = (await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  await cli.waitFor(/Client secret/);
  expect(cli.stdout()).not.toContain('Control');
  expect((await fetch(`${origin}/_sandbox`)).status).toBe(404);
});

test('a control token too easy to guess is a usage error', async () => {
  const dir = await tempDir();
  cli = startCli(['--data', join(dir, 'db.json'), '--port', '0', '--control'], {
    env: { STOREFRONT_CONTROL_TOKEN: 'short' },
  });
  expect(await cli.exited).toBe(2);
  expect(cli.stderr()).toContain('STOREFRONT_CONTROL_TOKEN must be at least 16 printable characters');
});

test('--join without --control on a --store is a usage error, and a JSON store says nothing of sandbox state', async () => {
  const dir = await tempDir();
  cli = startCli(['--data', join(dir, 'db.json'), '--port', '0', '--control', '--join']);
  expect(await cli.exited).toBe(2);
  expect(cli.stderr()).toContain(
    '--join keeps the control API’s state of a fleet on a database: it needs --control and --store',
  );
  cli = startCli(['--data', join(dir, 'db.json'), '--port', '0', '--quiet', '--products', '2', '--control']);
  await cli.waitFor(/Client secret/);
  expect(cli.stdout()).not.toContain('Sandbox state');
});
