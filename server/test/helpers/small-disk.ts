/**
 * Real disks that fail: a small tmpfs mounted for one test, which the test fills up or remounts read-only. chmod
 * would not do: root (as here and in CI) writes through it. Mounting needs root and a kernel that lets this
 * process mount; where it cannot, the tests that need it are skipped with a loud message, and fail under CI.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { mkdtemp, open, rm, rmdir, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, type TestContext } from 'vitest';
import { requirement, skipWithout } from '../../../test/support/requirement.js';

/** A tmpfs mounted at `dir`. */
export interface SmallDisk {
  dir: string;
  /** Remounts it read-only (`true`) or writable again. */
  readOnly(on: boolean): void;
  /** Fills it with a file `filler` (see {@link fillDisk}); returns its path. */
  fill(leave?: number): Promise<string>;
  /** Unmounts it and deletes its mount point. */
  remove(): Promise<void>;
}

const mount = (...args: string[]) => execFileSync('mount', args, { stdio: 'pipe' });

/** Mounts a tmpfs of `size` (`512k`, `1m`) at a fresh temporary directory. */
export async function mountSmallDisk(size: string, options: { readOnly?: boolean } = {}): Promise<SmallDisk> {
  const dir = await mkdtemp(join(tmpdir(), 'storefront-disk-'));
  try {
    mount('-t', 'tmpfs', '-o', `size=${size}${options.readOnly ? ',ro' : ''}`, 'tmpfs', dir);
  } catch (error) {
    await rmdir(dir);
    throw error;
  }
  return {
    dir,
    readOnly(on) {
      mount('-o', `remount,${on ? 'ro' : 'rw'}`, dir);
    },
    fill: (leave) => fillDisk(dir, leave),
    async remove() {
      // Lazily: a test that failed may have left a file open there (a store's journal), which would keep it busy.
      execFileSync('umount', ['--lazy', dir], { stdio: 'pipe' });
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Writes the file `filler` in the disk at `dir` until no more than `leave` bytes are free (by default until the
 * disk is full); returns its path. Delete it to give the space back.
 */
export async function fillDisk(dir: string, leave = 0): Promise<string> {
  const path = join(dir, 'filler');
  const file = await open(path, 'a');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) {
      const { bavail, bsize } = await statfs(dir);
      const free = bavail * bsize;
      if (free <= leave) break;
      await file.write(free - leave < chunk.length ? chunk.subarray(0, free - leave) : chunk);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    await file.close();
  }
  return path;
}

/** The right to mount a tmpfs: root, on a kernel that lets this process mount. */
const SMALL_DISKS = requirement('the right to mount a tmpfs', 'Run the tests as root.', () => {
  const dir = mkdtempSync(join(tmpdir(), 'storefront-disk-'));
  try {
    mount('-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir);
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return true;
  } finally {
    rmdirSync(dir);
  }
});

/**
 * Whether this machine lets the tests mount a tmpfs (probed once), for `describe.skipIf(!…)`. When it does not,
 * says so on standard error; under CI throws instead, so that the run fails with the reason.
 */
export async function canMountSmallDisks(tests: string): Promise<boolean> {
  return !skipWithout(SMALL_DISKS, tests);
}

/**
 * A fresh tmpfs of `size` per call, for the current test, unmounted after it; the call skips the test (loudly, or
 * fails it under CI) where this machine cannot mount one. Returns the mount point.
 */
export function useSmallDisk(size = '1m'): (context: TestContext) => Promise<string> {
  const mounted: SmallDisk[] = [];
  afterEach(async () => {
    for (const disk of mounted.splice(0)) {
      disk.readOnly(false);
      await disk.remove();
    }
  });
  return async (context) => {
    if (!(await canMountSmallDisks(context.task.name))) context.skip();
    const disk = await mountSmallDisk(size);
    mounted.push(disk);
    return disk.dir;
  };
}
