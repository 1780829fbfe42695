/** What goes wrong, as the real bin reports it: one line on standard error and the documented exit code. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../test/support/free-port.js';
import { run } from '../src/cli/run.js';
import { COMMANDS } from '../src/commands/index.js';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

/** `run` in this process, its output captured: for the help of every command without a process each. */
async function runHere(argv: string[]) {
  const streams = { stdout: '', stderr: '' };
  const capture = (name: keyof typeof streams) =>
    Object.assign(
      new Writable({
        write(chunk, _encoding, done) {
          streams[name] += chunk;
          done();
        },
      }),
      { isTTY: false },
    ) as unknown as NodeJS.WriteStream;
  const code = await run(argv, {
    env: { XDG_CONFIG_HOME: '/nonexistent' },
    cwd: '/',
    stdout: capture('stdout'),
    stderr: capture('stderr'),
  });
  return { code, ...streams };
}

describe('usage', BIN_TESTS, () => {
  it('answers --help on every command, and lists them all', async () => {
    const main = await runHere(['--help']);
    expect(main.code).toBe(0);
    expect(main.stdout).toContain(
      'Exit codes: 0 ok, 1 failure, 2 usage (a bad flag, argument or folder), 3 conflicts left alone,\n4 push or publish cut short (what went is said; run it again to finish).',
    );
    for (const command of COMMANDS) {
      expect(main.stdout).toMatch(new RegExp(`^ {2}${command.name} +\\S`, 'm'));
      const help = await runHere([command.name, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(
        new RegExp(`^Usage: storefront-themes ${command.name}( \\[dir\\])? \\[options\\]\\n`),
      );
      expect(help.stdout).toContain('  -h, --help');
      expect(help.stdout).toContain('  --json');
    }
  });

  it('says which version it is, the one of package.json', async () => {
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    expect((await runHere(['--version'])).stdout).toBe(`${pkg.version}\n`);
  });

  it('refuses a bad flag, an extra argument or an unknown command with exit code 2', async () => {
    const t = themes();
    const bad = await t.cli(['push', '--frobnicate']);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toBe(
      'storefront-themes push: unknown option --frobnicate for push (see storefront-themes push --help)\n',
    );
    const missing = await runHere(['pull', '--shop']);
    expect(missing).toMatchObject({
      code: 2,
      stderr: 'storefront-themes pull: option --shop needs a value (see storefront-themes pull --help)\n',
    });
    expect((await runHere(['status', 'a', 'b'])).stderr).toBe(
      'storefront-themes status: unexpected argument "b" (see storefront-themes status --help)\n',
    );
    expect(await runHere(['frob'])).toMatchObject({
      code: 2,
      stderr: 'storefront-themes: unknown command "frob" (see storefront-themes --help)\n',
    });
    const json = await runHere(['push', '--json', '--frobnicate']);
    expect(JSON.parse(json.stdout)).toEqual({
      ok: false,
      error: { message: expect.stringContaining('--frobnicate'), exitCode: 2 },
    });
  });

  it('refuses a folder that does not exist, is a file, or was never pulled, with exit code 2', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const temp = await t.tempDir();
    const missing = await t.cli(['push', join(temp, 'nope')], { config });
    expect(missing).toMatchObject({
      code: 2,
      stderr: `storefront-themes push: ${join(temp, 'nope')} does not exist\n`,
    });
    await writeFile(join(temp, 'file.txt'), 'not a folder');
    const file = await t.cli(['pull', join(temp, 'file.txt')], { config });
    expect(file).toMatchObject({
      code: 2,
      stderr: `storefront-themes pull: ${join(temp, 'file.txt')} is not a folder\n`,
    });
    const never = await t.cli(['status', temp], { config });
    expect(never.code).toBe(2);
    expect(never.stderr).toBe(
      `storefront-themes status: ${temp} holds no pulled theme (no .storefront-theme.json): run storefront-themes pull first\n`,
    );
  });
});

describe('failures', BIN_TESTS, () => {
  it('reports a server that is down in one line, exit code 1', async () => {
    const t = themes();
    const port = await freePort();
    const config = await t.tempDir();
    const login = await t.cli(['login', '--client-credentials', '--url', `http://127.0.0.1:${port}`], {
      config,
      env: { STOREFRONT_CLIENT_ID: 'x', STOREFRONT_CLIENT_SECRET: 'y' },
    });
    expect(login).toMatchObject({
      code: 1,
      stdout: '',
      // The new app is checked first, and not stored.
      stderr: `storefront-themes login: cannot reach the server at http://127.0.0.1:${port} to check the app (connection refused): nothing stored\n`,
    });
  });

  it('reports a server that went down after the login in one line, exit code 1', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const port = await freePort();
    const session = join(config, 'storefront-themes/session.json');
    const saved = JSON.parse(await readFile(session, 'utf8'));
    await writeFile(session, JSON.stringify({ ...saved, url: `http://127.0.0.1:${port}` }));
    const pulled = await t.cli(['pull', join(config, 'theme'), '--json'], { config });
    expect(pulled.code).toBe(1);
    expect(pulled.stderr).toBe(
      `storefront-themes pull: cannot reach the server at http://127.0.0.1:${port} (connection refused): is it running?\n`,
    );
    expect(JSON.parse(pulled.stdout)).toMatchObject({ ok: false, error: { exitCode: 1 } });
  });

  it('reports app credentials the server does not know', async () => {
    const t = themes();
    const login = await t.cli(['login', '--client-credentials', '--url', t.server.origin], {
      env: { STOREFRONT_CLIENT_ID: 'nobody', STOREFRONT_CLIENT_SECRET: 'nothing' },
    });
    expect(login.code).toBe(1);
    expect(login.stderr).toBe(
      `storefront-themes login: the server at ${t.server.origin} does not accept the client id "nobody" with this secret: nothing stored (copy both again from the platform)\n`,
    );
  });
});
