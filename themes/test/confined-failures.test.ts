/**
 * Confined reads and writes when the file system fails or changes under them: a failed rename leaves no temporary
 * file, the manifest is on the disk before it takes its name, and a file swapped in between the check and the open
 * (another file, a FIFO) is neither read nor waited on.
 */
import { execFileSync } from 'node:child_process';
import * as fsSync from 'node:fs';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readInside, UnsafePathError, writeInside } from '../src/theme/confined.js';
import { type Manifest, writeManifest } from '../src/theme/manifest.js';

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return { ...real, open: vi.fn(real.open), rename: vi.fn(real.rename) };
});
// Reads check with the synchronous lstat (see confined.ts).
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, lstatSync: vi.fn(real.lstatSync) };
});
const real = await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
const realSync = await vi.importActual<typeof import('node:fs')>('node:fs');

let dir: string;
beforeEach(async () => {
  dir = await real.mkdtemp(join(tmpdir(), 'storefront-confined-failures-'));
});
afterEach(async () => {
  vi.mocked(fsSync.lstatSync).mockImplementation(realSync.lstatSync);
  vi.mocked(fs.open).mockImplementation(real.open);
  vi.mocked(fs.rename).mockImplementation(real.rename);
  await real.rm(dir, { recursive: true, force: true });
});

/** The next lstat of `path` sees the file there, then `swap` replaces it before anyone opens it. */
function swapAfterCheck(path: string, swap: () => void): void {
  vi.mocked(fsSync.lstatSync).mockImplementation(((at: string) => {
    const info = realSync.lstatSync(at);
    if (at === path) {
      vi.mocked(fsSync.lstatSync).mockImplementation(realSync.lstatSync);
      swap();
    }
    return info;
  }) as typeof realSync.lstatSync);
}

describe('confined writes that fail', () => {
  it('leave no temporary file when the rename fails', async () => {
    vi.mocked(fs.rename).mockRejectedValueOnce(Object.assign(new Error('EXDEV: cross-device'), { code: 'EXDEV' }));
    await expect(writeInside(dir, 'partials/cart.html', '<p>cart</p>', { replace: false })).rejects.toThrow('EXDEV');
    expect(await real.readdir(join(dir, 'partials'))).toEqual([]);
  });

  it('flush the manifest to the disk before it is renamed into place', async () => {
    const steps: string[] = [];
    vi.mocked(fs.open).mockImplementation(async (...args) => {
      const handle = await real.open(...(args as Parameters<typeof real.open>));
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        steps.push('sync');
        return sync();
      };
      return handle;
    });
    vi.mocked(fs.rename).mockImplementation(async (from, to) => {
      steps.push('rename');
      return real.rename(from, to);
    });
    await writeManifest(dir, { version: 1, files: {} } as unknown as Manifest);
    expect(steps).toEqual(['sync', 'rename']);
  });
});

describe('confined reads of a file swapped after its check', () => {
  it('do not read another file put in its place', async () => {
    await real.writeFile(join(dir, 'page.html'), 'CHECKED');
    await real.writeFile(join(dir, 'other'), 'SWAPPED');
    swapAfterCheck(join(dir, 'page.html'), () => realSync.renameSync(join(dir, 'other'), join(dir, 'page.html')));
    await expect(readInside(dir, 'page.html')).rejects.toBeInstanceOf(UnsafePathError);
  });

  it('do not wait on a FIFO put in its place', { timeout: 5_000 }, async () => {
    await real.writeFile(join(dir, 'page.html'), 'CHECKED');
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    swapAfterCheck(join(dir, 'page.html'), () => realSync.renameSync(join(dir, 'fifo'), join(dir, 'page.html')));
    await expect(readInside(dir, 'page.html')).rejects.toBeInstanceOf(UnsafePathError);
  });
});
