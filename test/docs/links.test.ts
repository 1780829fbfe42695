/** Relative links of the docs and READMEs lead to files that exist, and to headings that exist in them. */
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_DIR, API_FILES } from '../../scripts/docs-api.js';
import { DOCS, ROOT } from './snippets.js';

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(`{3,}|~{3,})/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) found.add(slug(heading[1]!));
  }
  return found;
}

/** `[text](target)` links outside code, without those to other sites. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(`{3,}|~{3,})[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][\w+.-]*:/i.test(target));
}

const files = [
  ...(await readdir(DOCS)).filter((name) => name.endsWith('.md')).map((name) => join(DOCS, name)),
  join(ROOT, 'README.md'),
  join(ROOT, 'examples/README.md'),
  join(ROOT, 'examples/browser/README.md'),
];

describe('links of the docs', () => {
  it.each(files.map((file) => [relative(ROOT, file), file]))('%s', (_name, file) => {
    const markdown = readFileSync(file, 'utf8');
    const broken: string[] = [];
    for (const target of relativeLinks(markdown)) {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const destination = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      // The API reference is generated (`npm run docs`), not checked in: its file names are known.
      const generated = dirname(destination) === API_DIR && API_FILES.includes(relative(API_DIR, destination));
      if (generated) continue;
      if (!existsSync(destination)) broken.push(`${target}: no such file`);
      else if (anchor && destination.endsWith('.md') && !anchors(readFileSync(destination, 'utf8')).has(anchor)) {
        broken.push(`${target}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });
});
