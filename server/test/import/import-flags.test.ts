/**
 * What `storefront-server import` says without reaching a source: its flags and usage, where `--to` writes, the
 * row counts it prints and its lines about a source that asks it to wait. No server: these are the functions.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpError } from '@storefront-platform/sdk';
import { describe, expect, it, vi } from 'vitest';
import { dataFilePath } from '../../src/data-path.js';
import { importDataFile } from '../../src/import/destination.js';
import { rowCount } from '../../src/import/progress.js';
import { retryWaitLine, tryAgainHint } from '../../src/import/retry-wait.js';
import { runImport, USAGE } from '../../src/import-command.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

async function errorOf(argv: string[]): Promise<{ code: number; err: string }> {
  const said: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void said.push(line));
  try {
    const code = await runImport(argv, { STOREFRONT_REMOTE_CLIENT_SECRET: 's' });
    return { code, err: said.join('\n') };
  } finally {
    spy.mockRestore();
  }
}

describe('import flags', () => {
  it('says in one line which numbers --products and --concurrency take, a negative one too', async () => {
    const base = ['--from', 'http://127.0.0.1:9/v1', '--to', 'x', '--client-id', 'c'];
    for (const [flag, value, takes] of [
      ['--products', '-5', '≥ 0'],
      ['--products', '1.5', '≥ 0'],
      ['--concurrency', '-1', 'from 1 to 64'],
      ['--concurrency', '65', 'from 1 to 64'],
    ] as const) {
      const { code, err } = await errorOf([...base, flag, value]);
      expect(code).toBe(2);
      expect(err).toBe(
        `storefront-server import: ${flag} takes a whole number ${takes}, got "${value}"\n` +
          'Run storefront-server import --help for the options.',
      );
    }
  });

  it('lines up every description of --help in one column', () => {
    // Where each flag's description starts, and each continuation line.
    const columns = USAGE.split('\n').flatMap((line) => {
      const flag = /^( {2}--\S+(?: \S+)? {2,})\S/.exec(line);
      if (flag) return [flag[1]!.length];
      return /^ {3,}\S/.test(line) ? [line.search(/\S/)] : [];
    });
    expect(columns.length).toBeGreaterThan(10);
    expect(new Set(columns)).toEqual(new Set([columns[0]]));
  });
});

describe('import --to', () => {
  it('writes where --data reads: a directory, an existing one, or a path to its .json file', async () => {
    const dir = await tempDir();
    expect(importDataFile(join(dir, 'new'))).toBe(join(dir, 'new', 'db.json'));
    expect(importDataFile(join(dir, 'new', 'db.json'))).toBe(join(dir, 'new', 'db.json'));
    expect(importDataFile(join(dir, 'new', 'shop.json'))).toBe(join(dir, 'new', 'shop.json'));
    mkdirSync(join(dir, 'made.json'));
    writeFileSync(join(dir, 'file'), '{}');
    for (const given of [join(dir, 'new', 'db.json'), join(dir, 'made.json'), join(dir, 'file'), `${dir}/slash/`]) {
      expect(importDataFile(given)).toBe(dataFilePath(given));
    }
  });
});

describe('import output', () => {
  it('counts one row in the singular', () => {
    expect([rowCount(1, 'themes'), rowCount(0, 'themes'), rowCount(2, 'assets')]).toEqual([
      '1 theme',
      '0 themes',
      '2 assets',
    ]);
  });

  it('says a long wait the source asked for, and on failure when to try again', () => {
    const now = Date.parse('2026-12-01T10:00:00Z');
    const error = new HttpError({
      method: 'GET',
      url: 'http://api.test/v1/shops',
      status: 429,
      headers: { 'retry-after': '3600' },
    });
    const event = { method: 'GET', url: 'http://api.test/v1/shops', attempt: 1, delay: 30_000, error };
    expect(retryWaitLine(event, now)).toBe(
      'GET http://api.test/v1/shops answered 429: waiting 30 s before retrying (it asked for 60 min)',
    );
    expect(retryWaitLine({ ...event, delay: 1_000 }, now)).toBeUndefined();
    expect(tryAgainHint(error, now)).toBe(
      '; the source asks to be tried again in 60 min (after 2026-12-01T11:00:00.000Z)',
    );
    expect(tryAgainHint(new HttpError({ method: 'GET', url: 'http://api.test/', status: 503 }), now)).toBe('');
    expect(tryAgainHint(new Error('reset'), now)).toBe('');
  });
});
