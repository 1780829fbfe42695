/** The base copies `pull --merge` merges against: a copy cut short is no base, and is written anew. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepBase, readBase } from '../src/theme/base-copies.js';
import { md5 } from '../src/theme/digest.js';

describe('base copies', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'storefront-bases-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const text = '<h1>Base 😀</h1>\n'.repeat(100);
  const copy = () => join(dir, '.storefront/base', md5(text));

  it('writes anew a copy cut short, when the text is handed over again', async () => {
    await keepBase(dir, text);
    await writeFile(copy(), text.slice(0, 50));
    await keepBase(dir, text);
    expect(await readFile(copy(), 'utf8')).toBe(text);
    expect(await readBase(dir, md5(text))).toBe(text);
  });

  it('reads a damaged copy as none, and removes it so that the next pull or push keeps the text again', async () => {
    await keepBase(dir, text);
    await writeFile(copy(), text.slice(0, 50));
    expect(await readBase(dir, md5(text))).toBeUndefined();
    await expect(readFile(copy())).rejects.toThrow(/ENOENT/);
  });
});
