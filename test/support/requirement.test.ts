/**
 * Issue 28: a suite that lacks what it needs from the machine skips loudly, and under CI fails instead. The end
 * to end cases run the suites of fixtures/ in a child vitest whose PATH has neither redis-server nor `script`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requirement, skipWithout } from './requirement.js';

const missing = requirement('frobnicator', 'Install it: apt-get install frobnicator.', () => false);
const present = requirement('node', 'Install it.', () => true);

describe('skipWithout', () => {
  it('lets the tests run where the machine has what they need, without a word', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(skipWithout(present, 'The node tests', true)).toBe(false);
      expect(skipWithout(present, 'The node tests', false)).toBe(false);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('skips them where it lacks it, saying which, what is missing and how to get it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(skipWithout(missing, 'The frobnication tests', false)).toBe(true);
      expect(warn).toHaveBeenCalledWith(
        '\n*** The frobnication tests: SKIPPED, this machine lacks frobnicator. Install it: apt-get install frobnicator.\n',
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('fails them under CI instead', () => {
    expect(() => skipWithout(missing, 'The frobnication tests', true)).toThrow(
      'The frobnication tests cannot run, and CI runs every test: this machine lacks frobnicator. Install it: apt-get install frobnicator.',
    );
  });
});

describe('requirement', () => {
  it('probes once, and takes a probe that throws for a no, its error for the reason', () => {
    let probes = 0;
    const counted = requirement('x', '', () => ++probes > 0);
    expect([counted.available(), counted.available(), probes]).toEqual([true, true, 1]);
    const throwing = requirement('y', 'Get one.', () => {
      throw Object.assign(new Error('Command failed: y'), { stderr: Buffer.from('y: permission denied\n') });
    });
    expect([throwing.available(), throwing.reason]).toEqual([false, 'y: permission denied']);
    expect(() => skipWithout(throwing, 'The y tests', true)).toThrow(
      'The y tests cannot run, and CI runs every test: this machine lacks y (y: permission denied). Get one.',
    );
  });
});

describe('suites on a machine without redis-server and script', { timeout: 60_000 }, () => {
  const config = fileURLToPath(new URL('./fixtures/vitest.config.ts', import.meta.url));
  const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
  let bare: string;
  beforeAll(async () => {
    bare = await mkdtemp(join(tmpdir(), 'requirement-path-'));
  });
  afterAll(() => rm(bare, { recursive: true, force: true }));

  /** The fixtures' run under a PATH of one empty folder (node started by its path), and what it printed. */
  async function run(ci: string): Promise<{ code: number; output: string }> {
    // This worker's own VITEST_* variables would tell the child it runs inside another vitest.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
    Object.assign(env, { PATH: bare, CI: ci, NO_COLOR: '1', FORCE_COLOR: '0' });
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [vitest, 'run', '--config', config], {
        env,
      });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
      return { code, output: stdout + stderr };
    }
  }

  it('fail under CI, each saying what is missing', async () => {
    const { code, output } = await run('true');
    expect(code).toBe(1);
    expect(output).toContain('A suite on Redis cannot run, and CI runs every test: this machine lacks redis-server');
    expect(output).toContain(
      "A suite in a terminal cannot run, and CI runs every test: this machine lacks util-linux's script",
    );
    expect(output).toMatch(/Test Files +2 failed \(2\)/);
  });

  it('skip elsewhere, each saying so', async () => {
    const { code, output } = await run('false');
    expect(code).toBe(0);
    expect(output).toContain('*** A suite on Redis: SKIPPED, this machine lacks redis-server');
    expect(output).toContain("*** A suite in a terminal: SKIPPED, this machine lacks util-linux's script.");
    expect(output).toMatch(/Tests +2 skipped \(2\)/);
  });
});
