/**
 * Generates the API reference (`docs/api/`, checked in and kept current by test/docs) from the TSDoc of each entry point's barrel:
 * every export with its declaration and its documentation. Reports as warnings the exports that have no
 * TSDoc, and fails (`--check`) when there is any, so that the reference cannot silently have holes.
 *
 *   npx tsx scripts/docs-api.ts           write docs/api/*.md
 *   npx tsx scripts/docs-api.ts --check   generate in memory; exit 1 on any warning
 *
 * A small generator on the TypeScript compiler API rather than typedoc: it needs no dependency, renders the
 * declarations as written (the contract's types read better as source than as expanded types). The entry points
 * are those of the workspace's packages (scripts/workspace-packages.ts), but the packages' own `internal` ones.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { packageEntries } from './workspace-packages.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Where the reference is written. */
export const API_DIR = join(ROOT, 'docs', 'api');

/** The documented entry points: import name, barrel, output file (`@storefront-platform/sdk/redis`: `sdk-redis.md`). */
const ENTRIES = packageEntries()
  .filter((entry) => !entry.internal)
  .map(({ name, barrel }) => ({ name, barrel, file: `${name.slice(name.indexOf('/') + 1).replaceAll('/', '-')}.md` }));

/** Names of the files the generator writes into {@link API_DIR}. */
export const API_FILES: readonly string[] = ['README.md', ...ENTRIES.map((entry) => entry.file)];

/** The generated files (name → Markdown) and the warnings met on the way. */
export interface ApiReference {
  files: Record<string, string>;
  warnings: string[];
}

type Kind = 'Functions' | 'Classes' | 'Interfaces' | 'Types' | 'Constants';
const KINDS: readonly Kind[] = ['Functions', 'Classes', 'Interfaces', 'Types', 'Constants'];

interface Item {
  name: string;
  kind: Kind;
  /** The declaration as source, bodies and comments left out. */
  declaration: string;
  doc: string;
  members: { name: string; declaration: string; doc: string }[];
}

function program(): ts.Program {
  const configPath = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configPath);
  return ts.createProgram({ rootNames: ENTRIES.map((entry) => join(ROOT, entry.barrel)), options });
}

/** `{@link X}` and `{@link X | label}` as Markdown. */
function links(text: string): string {
  return text.replace(
    /\{@link(?:code|plain)?\s+([^}|\s]+)(?:[\s|]+([^}]*))?\}/g,
    (_, target: string, label?: string) => (label ? `${label} (\`${target}\`)` : `\`${target}\``),
  );
}

/**
 * An `@example` tag as Markdown, from its source text: the compiler's tag text loses the line break after
 * `@example` (which separates a title from the code) and the code's indentation.
 */
function example(tag: ts.JSDocTag, source: ts.SourceFile): string {
  const lines = source.text
    .slice(tag.tagName.end, tag.end)
    .split('\n')
    .map((line, i) => (i === 0 ? line : line.replace(/^\s*\*(?: |$)/, '')));
  while (lines.length && /^\s*(\*\/?|\/)?\s*$/.test(lines.at(-1)!)) lines.pop();
  const [title = '', ...rest] = lines;
  const body = rest.join('\n').trim();
  const code = body.startsWith('```') ? body : `\`\`\`ts\n${body}\n\`\`\``;
  return `**Example${title.trim() ? `: ${title.trim()}` : ''}**\n\n${code}`;
}

/** The documentation of a declaration as Markdown: its text, then its `@example`s and other tags. */
function docOf(checker: ts.TypeChecker, symbol: ts.Symbol, node: ts.Node): string {
  const source = node.getSourceFile();
  const blocks = [links(ts.displayPartsToString(symbol.getDocumentationComment(checker)))];
  for (const tag of ts.getJSDocTags(node)) {
    const name = tag.tagName.text;
    if (name === 'internal') continue;
    if (name === 'example') blocks.push(example(tag, source));
    else blocks.push(`**@${name}** ${links(ts.getTextOfJSDocComment(tag.comment) ?? '')}`);
  }
  return blocks.filter((block) => block.trim() !== '').join('\n\n');
}

/** `node`'s source without its body, its leading comments and the `export`/`declare` keywords. */
function header(node: ts.Node, source: ts.SourceFile): string {
  const body = (node as { body?: ts.Node }).body;
  const end = body ? body.getStart(source) : node.getEnd();
  return source.text
    .slice(node.getStart(source), end)
    .replace(/^(export\s+)?(default\s+)?(declare\s+)?/, '')
    .trim()
    .replace(/;$/, '');
}

/**
 * `node` as source with the comments of its members removed (they are listed apart), and its `@internal` members
 * left out, as they are from the list.
 */
function withoutComments(node: ts.Node, source: ts.SourceFile): string {
  const printer = ts.createPrinter({ removeComments: true });
  const dropInternal: ts.TransformerFactory<ts.Node> = (context) => (root) =>
    ts.visitEachChild(
      root,
      (child) => ((ts.isClassElement(child) || ts.isTypeElement(child)) && isInternal(child) ? undefined : child),
      context,
    );
  const [shown] = ts.transform(node, [dropInternal]).transformed;
  return printer.printNode(ts.EmitHint.Unspecified, shown!, source).replace(/^(export\s+)?(declare\s+)?/, '');
}

function isInternal(member: ts.ClassElement | ts.TypeElement): boolean {
  return ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal');
}

function isPublicMember(member: ts.ClassElement | ts.TypeElement): boolean {
  if (!member.name || ts.isPrivateIdentifier(member.name)) return false;
  const flags = ts.getCombinedModifierFlags(member as ts.Declaration);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return false;
  return !isInternal(member);
}

function describe(checker: ts.TypeChecker, name: string, symbol: ts.Symbol): Item | undefined {
  const node = symbol.declarations?.[0];
  if (!node) return undefined;
  const source = node.getSourceFile();
  const doc = docOf(checker, symbol, node);
  const members = (list: readonly (ts.ClassElement | ts.TypeElement)[]) =>
    list.filter(isPublicMember).map((member) => {
      const memberSymbol = checker.getSymbolAtLocation(member.name!);
      return {
        name: member.name!.getText(source),
        declaration: header(member, source).replace(/\s+/g, ' '),
        doc: memberSymbol ? docOf(checker, memberSymbol, member) : '',
      };
    });
  if (ts.isFunctionDeclaration(node)) {
    const overloads = (symbol.declarations ?? []).filter(ts.isFunctionDeclaration);
    const signatures = overloads.length > 1 ? overloads.filter((o) => !o.body) : overloads;
    return {
      name,
      kind: 'Functions',
      declaration: signatures.map((o) => header(o, source)).join('\n'),
      doc,
      members: [],
    };
  }
  if (ts.isClassDeclaration(node)) {
    const declaration = header(node, source)
      .replace(/\{[\s\S]*$/, '')
      .trim();
    return { name, kind: 'Classes', declaration, doc, members: members(node.members).filter((m) => m.doc) };
  }
  if (ts.isInterfaceDeclaration(node)) {
    return {
      name,
      kind: 'Interfaces',
      declaration: withoutComments(node, source),
      doc,
      members: members(node.members).filter((m) => m.doc),
    };
  }
  if (ts.isTypeAliasDeclaration(node)) {
    return { name, kind: 'Types', declaration: withoutComments(node, source), doc, members: [] };
  }
  if (ts.isVariableDeclaration(node)) {
    const type = checker.typeToString(
      checker.getTypeOfSymbolAtLocation(symbol, node),
      undefined,
      ts.TypeFormatFlags.NoTruncation,
    );
    return { name, kind: 'Constants', declaration: `const ${name}: ${type}`, doc, members: [] };
  }
  return undefined;
}

/** `text` as inline code, even when it holds backticks (template literal types). */
function inlineCode(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function render(entry: (typeof ENTRIES)[number], items: Item[]): string {
  const lines = [
    `# \`${entry.name}\``,
    '',
    `<!-- Generated by scripts/docs-api.ts from the TSDoc of ${entry.barrel}: run \`npm run docs\`. -->`,
    '',
    `Everything \`import { … } from '${entry.name}'\` offers, from the TSDoc where each is declared.`,
    '',
  ];
  for (const kind of KINDS) {
    const ofKind = items.filter((item) => item.kind === kind);
    if (!ofKind.length) continue;
    lines.push(
      `## ${kind}`,
      '',
      ofKind.map((item) => `[\`${item.name}\`](#${item.name.toLowerCase()})`).join(' · '),
      '',
    );
    for (const item of ofKind) {
      lines.push(`### ${item.name}`, '', '```ts', item.declaration, '```', '');
      if (item.doc) lines.push(item.doc, '');
      for (const member of item.members) {
        // A list item per member, its documentation indented under it (it may hold code blocks).
        lines.push(`- ${inlineCode(member.declaration)}`, '');
        if (member.doc) lines.push(...member.doc.split('\n').map((line) => (line ? `  ${line}` : '')), '');
      }
    }
  }
  return lines.join('\n');
}

/** The reference of every entry point whose barrel exists (the MSW entry may be absent in a checkout). */
export function generateApiReference(): ApiReference {
  const built = program();
  const checker = built.getTypeChecker();
  const files: Record<string, string> = {};
  const warnings: string[] = [];
  const index = ['# API reference', '', '<!-- Generated by scripts/docs-api.ts: run `npm run docs`. -->', ''];
  for (const entry of ENTRIES) {
    const source = built.getSourceFile(join(ROOT, entry.barrel));
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) {
      warnings.push(`${entry.name}: ${entry.barrel} not found`);
      continue;
    }
    const items: Item[] = [];
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const item = describe(checker, exported.name, symbol);
      const where = symbol.declarations?.[0];
      const at = where
        ? `${relative(ROOT, where.getSourceFile().fileName)}:${where.getSourceFile().getLineAndCharacterOfPosition(where.getStart()).line + 1}`
        : entry.barrel;
      if (!item) warnings.push(`${entry.name}: ${exported.name} is of a kind the generator does not render (${at})`);
      else {
        if (!item.doc) warnings.push(`${entry.name}: ${exported.name} has no TSDoc (${at})`);
        items.push(item);
      }
    }
    items.sort((a, b) => a.name.localeCompare(b.name));
    files[entry.file] = render(entry, items);
    index.push(`- [\`${entry.name}\`](${entry.file}): ${items.length} exports`);
  }
  files['README.md'] = `${index.join('\n')}\n`;
  return { files, warnings };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, warnings } = generateApiReference();
  for (const warning of warnings) console.warn(`warning: ${warning}`);
  if (!process.argv.includes('--check')) {
    await rm(API_DIR, { recursive: true, force: true });
    await mkdir(API_DIR, { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeFile(join(API_DIR, name), text);
    console.log(`Wrote ${Object.keys(files).length} files to ${relative(ROOT, API_DIR)}/`);
  }
  if (warnings.length) process.exitCode = 1;
}
