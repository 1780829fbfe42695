/**
 * An environment never pushed (another shop's theme, no manifest in the folder yet), through the real bin: what
 * its first push's dry run advises, and that status, diff and pull --env refuse alike rather than compare against
 * nothing or write that shop's theme into the folder, which the default environment would then push to its own.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

const TOML = [
  'default = "northwind"',
  '[environments.northwind]',
  'shop = "northwind"',
  'theme = "production"',
  '[environments.copper]',
  'shop = "copper-kettle"',
  'theme = "production"',
  '',
].join('\n');

/** Every file of the folder with its contents, the tool's own state included. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(path.slice(dir.length + 1), await readFile(path, 'latin1'));
  }
  return files;
}

describe('an environment never pushed', BIN_TESTS, () => {
  it('its dry run writes nothing and advises no pull; status, diff and pull --env refuse it alike', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const dir = join(await t.tempDir(), 'theme');
    const cli = (args: string[]) => t.cli(args, { config });
    expect((await cli(['pull', dir, '--shop', 'northwind'])).code).toBe(0);
    await writeFile(join(dir, 'storefront-themes.toml'), TOML);
    await writeFile(join(dir, 'page.html'), '<p>northwind, edited</p>\n');
    // A template only copper's theme has.
    const copper = join(await t.tempDir(), 'copper');
    expect((await cli(['pull', copper, '--shop', 'copper-kettle'])).code).toBe(0);
    await writeFile(join(copper, 'copper-only.html'), '<p>copper</p>\n');
    expect((await cli(['push', copper])).code).toBe(0);
    const before = await snapshot(dir);

    const dry = await cli(['push', dir, '--env', 'copper', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(3);
    expect(dry.stdout).toMatch(/conflict/);
    // Pulling another shop's theme into this folder is not the way out of a first push's conflicts.
    expect(dry.stdout).not.toMatch(/pull --merge|pull --force/);
    expect(dry.stdout).toMatch(/push --env copper --force/);
    // status refuses an environment never pushed (below): the dry run says when it lists the shop's own files.
    expect(dry.stdout).toMatch(
      /^1 change on the server not pulled yet \(status --env copper lists it after the first push\)$/m,
    );
    expect(await snapshot(dir)).toEqual(before);

    const refusal = /environment "copper" has no manifest in .+ yet \(\.storefront\/environments\/copper\.json\): /;
    for (const command of ['status', 'diff']) {
      const run = await cli([command, dir, '--env', 'copper']);
      expect(run.code, `${command}: ${run.stdout}`).toBe(2);
      expect(run.stderr).toMatch(refusal);
    }
    for (const merge of [['--merge'], []]) {
      const pulled = await cli(['pull', dir, '--env', 'copper', ...merge]);
      expect(pulled.code, pulled.stdout).toBe(2);
      expect(pulled.stderr).toMatch(refusal);
    }
    expect(await snapshot(dir)).toEqual(before);
    // The default environment still has only its own change to push.
    const status = await cli(['status', dir]);
    expect(status.stdout).toMatch(/1 change: 1 to push, 0 to pull, 0 conflicts/);

    // Once the first push has recorded copper's manifest, the status it points to lists the shop's own file.
    const first = await cli(['push', dir, '--env', 'copper', '--yes']);
    expect(first.stdout).toMatch(/^1 change on the server not pulled yet \(see status --env copper\)$/m);
    const after = await cli(['status', dir, '--env', 'copper']);
    expect(after.stdout).toMatch(/added on the server\s+copper-only\.html/);
  });
});
