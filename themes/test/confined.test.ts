/** Reads and writes of the theme folder never go through a symbolic link nor outside the folder. */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInside, removeInside, UnsafePathError, writeInside } from '../src/theme/confined.js';
import { scanFolder } from '../src/theme/local.js';

let root: string;
let dir: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'storefront-confined-'));
  dir = join(root, 'theme');
  outside = join(root, 'outside');
  await mkdir(dir);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.html'), 'SECRET');
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('confined reads and writes', () => {
  it('writes, reads and removes plain files, making and removing their folder', async () => {
    await writeInside(dir, 'partials/cart.html', '<p>cart</p>', { replace: false });
    expect((await readInside(dir, 'partials/cart.html'))?.toString()).toBe('<p>cart</p>');
    await writeInside(dir, 'partials/cart.html', '<p>new</p>', { replace: true });
    expect(await readFile(join(dir, 'partials/cart.html'), 'utf8')).toBe('<p>new</p>');
    await removeInside(dir, 'partials/cart.html');
    expect(await readInside(dir, 'partials/cart.html')).toBeUndefined();
    await expect(readFile(join(dir, 'partials'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writes a file while the last file of its folder is removed (a rename on the server, pulled in parallel)', async () => {
    for (let round = 0; round < 100; round++) {
      await writeInside(dir, 'partials/old.html', 'old', { replace: true });
      await Promise.all([
        removeInside(dir, 'partials/old.html'),
        writeInside(dir, 'partials/new.html', 'new', { replace: true }),
      ]);
      expect(await readFile(join(dir, 'partials/new.html'), 'utf8')).toBe('new');
      await removeInside(dir, 'partials/new.html');
    }
  });

  it('never over a file it was not told it may replace', async () => {
    await writeFile(join(dir, 'mine.html'), 'MINE');
    await expect(writeInside(dir, 'mine.html', 'theirs', { replace: false })).rejects.toThrow(/does not track/);
    expect(await readFile(join(dir, 'mine.html'), 'utf8')).toBe('MINE');
  });

  it('refuses a link as the file and as a folder on the way, leaving what it points to alone', async () => {
    await symlink(join(outside, 'secret.html'), join(dir, 'leak.html'));
    await symlink(outside, join(dir, 'partials'));
    for (const path of ['leak.html', 'partials/secret.html', 'partials/new.html']) {
      await expect(readInside(dir, path)).rejects.toBeInstanceOf(UnsafePathError);
      await expect(writeInside(dir, path, 'EVIL', { replace: true })).rejects.toBeInstanceOf(UnsafePathError);
      await expect(removeInside(dir, path)).rejects.toBeInstanceOf(UnsafePathError);
    }
    expect(await readFile(join(outside, 'secret.html'), 'utf8')).toBe('SECRET');
    await expect(readFile(join(outside, 'new.html'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a path that is not a plain one inside the folder', async () => {
    for (const path of ['../outside/secret.html', '/etc/passwd', 'a/../../x.html', 'a\\..\\x.html', '', './x.html']) {
      await expect(writeInside(dir, path, 'EVIL', { replace: true })).rejects.toBeInstanceOf(UnsafePathError);
      await expect(readInside(dir, path)).rejects.toBeInstanceOf(UnsafePathError);
    }
  });

  it('lists links in the scan, never their files', async () => {
    await writeFile(join(dir, 'index.html'), 'index');
    await symlink(join(outside, 'secret.html'), join(dir, 'leak.html'));
    await symlink(outside, join(dir, 'linked'));
    const scan = await scanFolder(dir);
    expect([...scan.files.keys()]).toEqual(['index.html']);
    expect(scan.links).toEqual(['leak.html', 'linked']);
  });
});
