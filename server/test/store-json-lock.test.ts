import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServer } from '../src/create-server.js';
import { createJsonStore } from '../src/store/json/json-file.js';
import { StoreLockedError } from '../src/store/json/store-locked-error.js';
import { useTempDir } from './helpers/temp-dir.js';

const tempDir = useTempDir();

/** The PID of a process that has exited. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return pid!;
}

const lockText = (pid: number, host = hostname(), started?: string) =>
  JSON.stringify({ pid, host, since: '2026-01-01T00:00:00.000Z', ...(started ? { started } : {}) });

/** Linux's `/proc/<pid>/stat`: the process's state and start (clock ticks after boot). */
function procStat(pid: number): { state: string; start: string } {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, start: fields[19]! };
}
const hasProc = (() => {
  try {
    procStat(process.pid);
    return true;
  } catch {
    return false;
  }
})();

describe('JSON-file store lock', () => {
  it('lets one store at a time open the data, and releases it on close', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const store = await createJsonStore(path, { sync: false });
    const lock = JSON.parse(await readFile(join(dir, 'db.lock'), 'utf8'));
    expect(lock).toMatchObject({ pid: process.pid, host: hostname() });

    const second = createJsonStore(path, { sync: false });
    await expect(second).rejects.toThrow(StoreLockedError);
    await expect(second).rejects.toThrow(`${join(dir, 'db.lock')}: the data is in use by this process`);
    await expect(createServer({ port: 0, data: path })).rejects.toMatchObject({
      name: 'StoreLockedError',
      path: join(dir, 'db.lock'),
      holder: { pid: process.pid },
    });
    // Data sets with other names in the same directory have locks of their own.
    const other = await createJsonStore(join(dir, 'other.json'), { sync: false });
    await other.close();

    await store.close();
    await expect(stat(join(dir, 'db.lock'))).rejects.toThrow(/ENOENT/);
    await (await createJsonStore(path, { sync: false })).close();
  });

  it('refuses data locked by a live process, or by one on another host, and leaves its lock alone', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const lock = join(dir, 'db.lock');
    await writeFile(lock, lockText(process.ppid));
    const refused = await createJsonStore(path).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreLockedError);
    expect((refused as StoreLockedError).holder.pid).toBe(process.ppid);
    expect((refused as Error).message).toContain(`process ${process.ppid} since 2026-01-01T00:00:00.000Z`);
    expect(await readFile(lock, 'utf8')).toBe(lockText(process.ppid));

    await writeFile(lock, lockText(deadPid(), 'elsewhere.example'));
    await expect(createJsonStore(path)).rejects.toThrow(/on elsewhere\.example/);
  });

  it('takes over the lock of a process that is gone, or that this PID had before a restart', async () => {
    const dir = await tempDir();
    const path = join(dir, 'db.json');
    const lock = join(dir, 'db.lock');
    for (const stale of [lockText(deadPid()), lockText(process.pid), '{"pid": 12']) {
      await writeFile(lock, stale);
      const store = await createJsonStore(path, { sync: false });
      expect(JSON.parse(await readFile(lock, 'utf8')).pid).toBe(process.pid);
      await store.close();
    }
  });

  it.skipIf(!hasProc)(
    'takes over the lock of a zombie: a server killed whose parent has not reaped it yet',
    async () => {
      // `sleep 60` (the shell, exec'd) is the parent of the child and never waits for it.
      const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
      try {
        const child = Number(
          await new Promise<string>((resolve) => parent.stdout!.once('data', (data) => resolve(String(data)))),
        );
        const lock = join(await tempDir(), 'db.lock');
        await writeFile(lock, lockText(child, hostname(), procStat(child).start));
        // Killed while the shell has not yet exec'd into `sleep`, the child would be reaped by the shell.
        await expect.poll(() => readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim()).toBe('sleep');
        process.kill(child, 'SIGKILL');
        await expect.poll(() => procStat(child).state).toBe('Z');
        const store = await createJsonStore(lock.replace(/lock$/, 'json'), { sync: false });
        expect(JSON.parse(await readFile(lock, 'utf8')).pid).toBe(process.pid);
        await store.close();
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it.skipIf(!hasProc)(
    'takes over the lock of a PID now used by another process, and refuses it for the one that took it',
    async () => {
      const dir = await tempDir();
      const path = join(dir, 'db.json');
      const lock = join(dir, 'db.lock');
      const live = process.ppid;
      await writeFile(lock, lockText(live, hostname(), procStat(live).start));
      await expect(createJsonStore(path, { sync: false })).rejects.toThrow(StoreLockedError);
      // The same PID, started at another time: the process that wrote the lock is gone.
      await writeFile(lock, lockText(live, hostname(), String(Number(procStat(live).start) + 1)));
      const store = await createJsonStore(path, { sync: false });
      expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({
        pid: process.pid,
        started: procStat(process.pid).start,
      });
      await store.close();
    },
  );
});
