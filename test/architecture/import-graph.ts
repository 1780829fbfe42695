/** The imports of a package's sources, read with TypeScript's own scanner (type-only ones included). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import or export-from of a source file. */
export interface ImportEdge {
  /** The importing file, relative to the repository root, `/`-separated. */
  from: string;
  /** The specifier as written. */
  specifier: string;
  /** For a relative specifier: the `.ts` file it resolves to, relative to the repository root. */
  target?: string;
}

/** Every `.ts` file under `dir`, relative to `root`, `/`-separated. */
export function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => toPosix(relative(root, join(entry.parentPath, entry.name))))
    .sort();
}

/**
 * The imports of `file` (relative to `root`), as {@link specifiersOf} finds them. A relative specifier is
 * resolved the way NodeNext resolves our sources: `./x.js` is `./x.ts` (or `./x.d.ts`), `./x.json` itself; one
 * that names no file throws, so that no edge goes missing.
 */
export function importsOf(root: string, file: string): ImportEdge[] {
  return specifiersOf(readFileSync(join(root, file), 'utf8')).map((specifier) => {
    if (!specifier.startsWith('.')) return { from: file, specifier };
    return { from: file, specifier, target: resolveRelative(root, file, specifier) };
  });
}

/**
 * The module specifiers `source` imports: static and dynamic imports, `import type`, `export … from`,
 * `import('…')` types and `/// <reference path>`. Type-only ones count: they tie the declarations together too.
 */
export function specifiersOf(source: string): string[] {
  const info = ts.preProcessFile(source, true, true);
  return [...info.referencedFiles, ...info.importedFiles].map((ref) => ref.fileName);
}

function resolveRelative(root: string, file: string, specifier: string): string {
  const base = resolve(root, dirname(file), specifier);
  // A JSON module (a package's own manifest) is itself the file.
  if (specifier.endsWith('.json') && existsSync(base)) return toPosix(relative(root, base));
  const stem = base.replace(/\.(?:js|ts)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.d.ts`]) {
    if (existsSync(candidate)) return toPosix(relative(root, candidate));
  }
  throw new Error(`${file}: cannot resolve ${specifier} to a .ts file`);
}

/** The module graph of `edges` (relative imports only), every file of `files` a node. */
export function moduleGraph(files: readonly string[], edges: readonly ImportEdge[]): Map<string, string[]> {
  const graph = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const { from, target } of edges) {
    if (target === undefined) continue;
    const targets = graph.get(from) ?? [];
    if (!targets.includes(target)) targets.push(target);
    graph.set(from, targets);
  }
  return graph;
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
