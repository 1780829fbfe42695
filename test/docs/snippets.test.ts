/** Every ```ts block of docs/*.md type-checks against the sources, so that the docs cannot rot. */
import { describe, expect, it } from 'vitest';
import { asProgram, docSnippets, extractSnippets, formatErrors, typeCheck } from './snippets.js';

describe('doc snippets', () => {
  it('finds ts blocks only, with the line of their first code line', () => {
    const markdown = [
      '# T',
      '```ts',
      'const a = 1;',
      '```',
      '```sh',
      'npm start',
      '```',
      '````typescript',
      'let b',
      '````',
    ];
    expect(extractSnippets(markdown.join('\n'), 'x.md')).toEqual([
      { file: 'x.md', line: 3, code: 'const a = 1;' },
      { file: 'x.md', line: 9, code: 'let b' },
    ]);
    expect(() => extractSnippets('```ts\nopen', 'y.md')).toThrow('y.md:1: a code block is never closed');
  });

  it("joins a program's blocks in order, each code line keeping its Markdown line, standalone blocks apart", () => {
    const markdown = [
      '```ts',
      'const a = 1;',
      '```',
      'text',
      '```ts standalone',
      'alone',
      '```',
      '```ts',
      'a + 1;',
      '```',
    ];
    const snippets = extractSnippets(markdown.join('\n'), 'p.md');
    expect(snippets[1]).toEqual({ file: 'p.md', line: 6, code: 'alone', standalone: true });
    expect(asProgram(snippets)).toEqual([
      { file: 'p.md', line: 2, code: 'const a = 1;\na + 1;', lines: [2, 9] },
      { file: 'p.md', line: 6, code: 'alone', standalone: true },
    ]);
  });

  it('reports a type error at its line in the Markdown file', () => {
    const errors = typeCheck([
      {
        file: 'docs/bad.md',
        line: 10,
        code: "import { createClient } from '@storefront-platform/sdk';\n\ncreateClient({ baseUrl: 1 });",
      },
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: 'docs/bad.md', line: 12 });
    expect(errors[0]!.message).toMatch(/number/);
  }, 120_000);

  it('type-checks every ts block of docs/', async () => {
    const snippets = await docSnippets();
    expect(snippets.length).toBeGreaterThan(0);
    const errors = typeCheck(snippets);
    expect(errors, formatErrors(errors)).toEqual([]);
  }, 120_000);
});
