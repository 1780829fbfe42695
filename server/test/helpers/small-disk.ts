/**
 * Real disks that fail: a small tmpfs mounted for one test, which the test fills up or remounts read-only. chmod
 * would not do: root (as here and in CI) writes through it. Mounting needs root and a kernel that lets this
 * process mount; where it cannot, the tests that need it are skipped with a loud message, and fail under CI.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { underCi } from '../../../test/support/ci.js';

/** A tmpfs mounted at `dir`. */
export interface SmallDisk {
  dir: string;
  /** Remounts it read-only (`true`) or writable again. */
  readOnly(on: boolean): void;
  /** Writes a file `name` until the disk is full; returns its path. */
  fill(name?: string): Promise<string>;
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
    async fill(name = 'filler') {
      const path = join(dir, name);
      const chunk = Buffer.alloc(4096, 1);
      for (let size = 1; ; size++) {
        try {
          await writeFile(path, Buffer.alloc(size * chunk.length, 1));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return path;
          throw error;
        }
      }
    },
    async remove() {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let mountable: boolean | undefined;

/**
 * Whether this machine lets the tests mount a tmpfs (probed once), for `describe.skipIf(!…)`. When it does not,
 * says so on standard error; under CI throws instead, so that the run fails with the reason.
 */
export async function canMountSmallDisks(tests: string): Promise<boolean> {
  if (mountable === undefined) {
    try {
      await (await mountSmallDisk('64k')).remove();
      mountable = true;
    } catch (error) {
      const reason = ((error as { stderr?: Buffer }).stderr?.toString() || (error as Error).message).trim();
      if (underCi) throw new Error(`${tests} cannot run, and CI runs every test: mounting a tmpfs failed (${reason})`);
      console.warn(`\n*** ${tests}: SKIPPED, this machine cannot mount a tmpfs (${reason}); run as root\n`);
      mountable = false;
    }
  }
  return mountable;
}
