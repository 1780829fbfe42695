/**
 * The guides whose blocks form one program (snippets.ts, PROGRAMS), run as a reader pastes them: the blocks of
 * docs/msw.md, in order, in one test file. They are read from the Markdown when this file loads, so that the
 * guide and its test cannot drift: the tests below are the guide's own.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe } from 'vitest';
import { fileSnippets, ROOT } from './snippets.js';

/**
 * Writes the program of `file` beside the repository's sources (in the ignored `.tmp/`), with `after` at its end,
 * and loads its tests.
 */
async function runProgram(file: string, after: string): Promise<void> {
  const [program] = await fileSnippets(file);
  if (!program?.lines) throw new Error(`${file}: no blocks that form a program`);
  const path = join(ROOT, '.tmp', 'doc-programs', `${file.replace(/[^\w]+/g, '-')}.ts`);
  await mkdir(join(ROOT, '.tmp', 'doc-programs'), { recursive: true });
  await writeFile(path, `${program.code}\n${after}\n`);
  await import(pathToFileURL(path).href);
}

describe('docs/msw.md, its blocks pasted in order into one test file', async () => {
  // A failure a test added must not outlive it: the guide's client still reads its root after all its tests.
  await runProgram(
    'docs/msw.md',
    "test('(after the guide) the mock answers a later test as the first', async () => { await client.root(); });",
  );
});
