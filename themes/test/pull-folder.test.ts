/** A pull that fails before writing anything leaves no folder behind when it made the folder itself. */
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

describe('pull into a new folder', BIN_TESTS, () => {
  it('removes the folder it made when the pull fails, and keeps one that was there', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const root = await t.tempDir();
    // Northwind has no development theme in this server yet: pull --dev fails before writing anything.
    const failed = await t.cli(['pull', join(root, 'spring'), '--dev', '--shop', 'northwind'], { config });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/has no development theme: create it with storefront-themes dev/);
    expect(await stat(join(root, 'spring')).catch(() => 'absent')).toBe('absent');

    await mkdir(join(root, 'mine'));
    const again = await t.cli(['pull', join(root, 'mine'), '--dev', '--shop', 'northwind'], { config });
    expect(again.code).toBe(1);
    expect(await readdir(join(root, 'mine'))).toEqual([]);
  });
});
