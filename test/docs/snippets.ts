/**
 * The TypeScript code blocks of the docs, type-checked as modules of this repository: each ```ts block is one
 * file, compiled in memory beside the repository's sources (never written to disk) with the root tsconfig, so
 * that `@storefront-platform/sdk`, `@storefront-platform/server` and `@storefront-platform/server/msw` resolve to the sources.
 * A guide of {@link PROGRAMS} is one program instead: its blocks in order, as a reader pastes them into one file
 * (but for blocks fenced ```ts standalone, which stand apart, such as a browser's setup).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DOCS = join(ROOT, 'docs');
/**
 * What every block may use without declaring it: the objects docs/sdk.md obtains in its first section. A virtual
 * file, seen only by the snippets' program: as a real `.d.ts` it would declare these globals for the whole project.
 */
const CONTEXT = join(ROOT, '.tmp', 'doc-snippets', 'context.d.ts');
/** Declarations of the frameworks the docs show that this repository does not install (Hono). */
const FRAMEWORK_TYPES = [join(ROOT, 'examples', 'webhooks', 'hono-types.d.ts')];
const CONTEXT_SOURCE = `import type { Client, Root, Shop, Theme } from '@storefront-platform/sdk';

declare global {
  /** A client of the reference server, authenticated with the demo app. */
  const client: Client;
  /** \`await client.root()\`. */
  const root: Root;
  /** A shop of the demo user, in detail. */
  const shop: Shop;
  /** \`await shop.follow('svc:theme')\`. */
  const theme: Theme;
}
`;

/** One code block of a Markdown file. */
export interface Snippet {
  /** The Markdown file, relative to the repository. */
  file: string;
  /** 1-based line of the block's first code line in that file. */
  line: number;
  code: string;
  /** The Markdown line of each code line, when the code joins several blocks (a program). */
  lines?: number[];
  /** Fenced ```ts standalone: not part of its guide's program. */
  standalone?: true;
}

/** Guides whose blocks form one program, run in order by the docs tests (see programs.test.ts). */
export const PROGRAMS = ['docs/msw.md'];

/** A type error in a snippet, located in its Markdown file. */
export interface SnippetError {
  file: string;
  line: number;
  message: string;
}

/** The ```ts (or ```typescript) blocks of `markdown`. */
export function extractSnippets(markdown: string, file: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = markdown.split('\n');
  let open: { fence: string; line: number; code: string[]; checked: boolean; standalone: boolean } | undefined;
  for (const [index, text] of lines.entries()) {
    if (!open) {
      const start = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)(.*)$/.exec(text);
      if (start) {
        const checked = /^(ts|typescript)$/.test(start[3]!);
        open = { fence: start[2]!, line: index + 2, code: [], checked, standalone: /\bstandalone\b/.test(start[4]!) };
      }
    } else if (text.trim().startsWith(open.fence) && text.trim().replace(/[`~]/g, '') === '') {
      if (open.checked) {
        const snippet: Snippet = { file, line: open.line, code: open.code.join('\n') };
        if (open.standalone) snippet.standalone = true;
        snippets.push(snippet);
      }
      open = undefined;
    } else open.code.push(text);
  }
  if (open) throw new Error(`${file}:${open.line - 1}: a code block is never closed`);
  return snippets;
}

/** The blocks of a guide of {@link PROGRAMS} joined in order, but for its standalone ones (which follow it). */
export function asProgram(snippets: readonly Snippet[]): Snippet[] {
  const joined = snippets.filter((snippet) => !snippet.standalone);
  if (!joined.length) return [...snippets];
  const lines = joined.flatMap((snippet) => snippet.code.split('\n').map((_, i) => snippet.line + i));
  const code = joined.map((snippet) => snippet.code).join('\n');
  return [{ file: joined[0]!.file, line: joined[0]!.line, code, lines }, ...snippets.filter((s) => s.standalone)];
}

/** The snippets of one Markdown file of the repository (`docs/x.md`), a program's blocks joined. */
export async function fileSnippets(file: string): Promise<Snippet[]> {
  const snippets = extractSnippets(await readFile(join(ROOT, file), 'utf8'), file);
  return PROGRAMS.includes(file) ? asProgram(snippets) : snippets;
}

/** Every snippet of the Markdown files directly in `docs/`. */
export async function docSnippets(): Promise<Snippet[]> {
  const names = (await readdir(DOCS)).filter((name) => name.endsWith('.md')).sort();
  const all: Snippet[] = [];
  for (const name of names) all.push(...(await fileSnippets(`docs/${name}`)));
  return all;
}

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(ROOT, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configPath);
  // The strictest settings an app may have: what the docs show must compile there too.
  return { ...options, exactOptionalPropertyTypes: true };
}

/** Type-checks `snippets` together (one program, one file each); returns their errors. */
export function typeCheck(snippets: readonly Snippet[]): SnippetError[] {
  // Virtual files inside the repository, so that modules resolve and `"type": "module"` applies as for real files.
  const virtual = new Map<string, Snippet>();
  for (const snippet of snippets) {
    const name = `${snippet.file.replace(/[^\w]+/g, '-')}-${snippet.line}.ts`;
    virtual.set(join(ROOT, '.tmp', 'doc-snippets', name), snippet);
  }
  const options = compilerOptions();
  const sources = new Map([...virtual].map(([path, snippet]) => [path, snippet.code]));
  sources.set(CONTEXT, CONTEXT_SOURCE);
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile: read, getSourceFile } = host;
  host.fileExists = (path) => sources.has(path) || fileExists.call(host, path);
  host.readFile = (path) => sources.get(path) ?? read.call(host, path);
  host.getSourceFile = (path, language, onError, create) => {
    const code = sources.get(path);
    return code === undefined
      ? getSourceFile.call(host, path, language, onError, create)
      : ts.createSourceFile(path, code, language, true);
  };
  const program = ts.createProgram({ rootNames: [...virtual.keys(), CONTEXT, ...FRAMEWORK_TYPES], options, host });
  const errors: SnippetError[] = [];
  for (const [path, snippet] of virtual) {
    const source = program.getSourceFile(path);
    if (!source) throw new Error(`${snippet.file}:${snippet.line}: not compiled`);
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line;
      errors.push({
        file: snippet.file,
        line: snippet.lines?.[line] ?? snippet.line + line,
        message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
      });
    }
  }
  return errors;
}

/** `docs/x.md:12: message`, for failure output. */
export function formatErrors(errors: readonly SnippetError[]): string {
  return errors.map((e) => `${relative(ROOT, join(ROOT, e.file))}:${e.line}: ${e.message}`).join('\n');
}
