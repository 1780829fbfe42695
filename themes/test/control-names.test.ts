/**
 * Names printed to a terminal have their control characters escaped: a local file or folder name holding ESC (a
 * CSI or OSC sequence), BEL, CR/LF or a C1 control (U+009B, which some terminals take for CSI) is shown as
 * `\u001b`, `\u0007`, `\u000d\u000a`, `\u009b`, never acted on, by every command that prints it.
 */
import { rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

/** File names a theme cannot have (the API refuses them), each with controls a terminal would act on. */
const HOSTILE = [
  'clear\u001b[2Jscreen.html',
  'assets/bell\u0007.css',
  'line\r\nbreak.html',
  'csi\u009b31mred.html',
  'title\u001b]0;owned\u0007.html',
];
/** What none of the output may hold: ESC, BEL, CR, C1 controls, DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

async function hostileFolder() {
  const t = themes();
  const { config, dir } = await t.checkedOut('pull');
  for (const name of HOSTILE) await writeFile(join(dir, name), 'x');
  await symlink('/etc/passwd', join(dir, 'link\u001b[8mhidden.html'));
  // The folder's own name too: status prints it.
  const renamed = `${dir}\u001b[41m\u009b`;
  await rename(dir, renamed);
  return { t, config, dir: renamed };
}

/** Every line of `text` is one the tool wrote: no name split it, no control in it. */
function expectEscaped(text: string): void {
  expect(text).not.toMatch(RAW_CONTROL);
  expect(text).not.toMatch(/^break\.html/m);
}

describe('names with control characters', BIN_TESTS, () => {
  it('are escaped by status, check, push, diff and pull', async () => {
    const { t, config, dir } = await hostileFolder();

    const status = await t.cli(['status', dir], { config });
    expect(status.code).toBe(0);
    expectEscaped(status.stdout + status.stderr);
    expect(status.stdout).toContain('clear\\u001b[2Jscreen.html');
    expect(status.stdout).toContain('assets/bell\\u0007.css');
    expect(status.stdout).toContain('line\\u000d\\u000abreak.html');
    expect(status.stdout).toContain('csi\\u009b31mred.html');
    expect(status.stdout).toContain('title\\u001b]0;owned\\u0007.html');
    expect(status.stdout).toContain('link\\u001b[8mhidden.html');
    expect(status.stdout).toContain('\\u001b[41m\\u009b');

    const check = await t.cli(['check', dir], { config });
    expectEscaped(check.stdout + check.stderr);
    expect(check.stdout).toContain('line\\u000d\\u000abreak.html');

    for (const args of [
      ['push', dir, '--dry-run'],
      ['diff', dir],
      ['pull', dir],
    ]) {
      const run = await t.cli(args, { config });
      expectEscaped(run.stdout + run.stderr);
    }
    // A folder that does not exist is named in the error.
    const missing = await t.cli(['status', `${dir}\u0007gone`], { config });
    expect(missing.code).toBe(2);
    expectEscaped(missing.stderr);
    expect(missing.stderr).toContain('\\u0007gone');
  });
});
