/** What `dev` shows over the page, from the watch's events and the folder's check (the browser side: dev-overlay). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DevProblems, folderErrors } from '../src/theme/dev-problems.js';
import { EVERY_FILE } from '../src/theme/file-filter.js';

const file = (path: string, message?: string) => ({
  path,
  kind: 'template' as const,
  action: 'conflict' as const,
  ...(message ? { message } : {}),
});

describe('DevProblems', () => {
  it('keeps a refusal until the file is sent, brought or found unchanged; a kept file (the network) is none', () => {
    const problems = new DevProblems();
    expect(problems.seen({ type: 'failed', path: 'a.html', error: new Error('down'), kept: true, waiting: 1 })).toBe(
      false,
    );
    expect(problems.list).toEqual([]);
    problems.seen({ type: 'failed', path: 'b.html', error: new Error('too large'), kept: false, waiting: 0 });
    problems.seen({ type: 'conflict', file: file('a.html', 'changed on the server too') });
    expect(problems.list).toEqual([
      { path: 'a.html', rule: 'conflict', message: 'changed on the server too' },
      { path: 'b.html', rule: 'refused', message: 'too large' },
    ]);
    expect(problems.seen({ type: 'pushed', file: { ...file('a.html'), action: 'updated' }, ms: 1 })).toBe(true);
    expect(problems.seen({ type: 'unchanged', path: 'b.html' })).toBe(true);
    expect(problems.list).toEqual([]);
  });

  it('escapes what a terminal or a reader would be misled by, and puts the check after the refusals', () => {
    const problems = new DevProblems();
    problems.seen({
      type: 'failed',
      path: 'c.html',
      error: new Error('bad\u202ename\u001b[2J'),
      kept: false,
      waiting: 0,
    });
    problems.checked([{ path: 'a.html', line: 2, column: 1, rule: 'html', message: 'x' }]);
    expect(problems.list).toEqual([
      { path: 'c.html', rule: 'refused', message: 'bad\\u202ename\\u001b[2J' },
      { path: 'a.html', line: 2, column: 1, rule: 'html', message: 'x' },
    ]);
  });

  it("reads the folder's check errors, with their lines, and leaves warnings out", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dev-problems-'));
    try {
      await writeFile(join(dir, 'layout.html'), '<main>\n</article>\n</main>\n');
      await writeFile(join(dir, 'Layout.html'), '<p>twin</p>\n');
      expect(await folderErrors(dir, EVERY_FILE)).toEqual([
        { path: 'layout.html', line: 2, column: 1, rule: 'html', message: expect.stringContaining('</article>') },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
