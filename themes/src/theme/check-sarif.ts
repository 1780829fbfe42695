/**
 * `check --format sarif`: the problems of a check as a SARIF 2.1.0 log (OASIS, errata 01), the format GitHub code
 * scanning and other code-review tools read. One run, one rule per check rule (each result names it by `ruleId`
 * and `ruleIndex`), and each result's place as a path relative to the source root (the repository holding the
 * theme folder), so that a code-scanning upload run from the repository's root points at the right lines.
 */
import { lstat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { VERSION } from '../version.js';
import type { CheckProblem, CheckRule } from './check.js';
import { MANIFEST_FILE } from './layout.js';

/** The tool's documentation, where each rule is described (`docs/themes-cli.md#checking-a-theme`). */
const HELP_URI =
  'https://github.com/storefront-platform/storefront-platform/blob/main/docs/themes-cli.md#checking-a-theme';

/** What each rule finds, in the words of the documentation's table: complete by type, so a new rule needs one. */
const RULES: Record<CheckRule, { name: string; description: string }> = {
  reference: {
    name: 'MissingReference',
    description:
      'A src, href, srcset, poster or data in HTML, or a url() or @import in CSS, names a file the theme lacks.',
  },
  html: {
    name: 'UnbalancedHtml',
    description:
      'An element is not closed before its parent closes, an end tag closes nothing, or a comment is not closed.',
  },
  css: { name: 'CssSyntax', description: 'A stylesheet does not parse.' },
  size: { name: 'SizeLimit', description: "A file or the theme is over the API's size limits." },
  content: {
    name: 'AssetContent',
    description: "An asset's bytes are not a file of the kind its extension names, or it is empty.",
  },
  name: { name: 'FileName', description: 'A file name the API refuses, or names equal but for case.' },
  layout: { name: 'MissingLayout', description: 'The theme has no layout.html.' },
  'conflict-markers': { name: 'ConflictMarkers', description: 'Conflict markers left by a merge.' },
};

const RULE_IDS = Object.keys(RULES) as CheckRule[];

/** A SARIF 2.1.0 log (only the members this tool writes). */
export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: object[];
}

/**
 * The source root of `dir`: the nearest folder at or above it holding `.git` (a folder, or the file of a worktree),
 * else `dir` itself. Result paths are relative to it, as code scanning resolves them against the repository.
 */
export async function sourceRoot(dir: string): Promise<string> {
  const start = resolve(dir);
  for (let at = start; ; at = dirname(at)) {
    if (
      await lstat(join(at, '.git')).then(
        () => true,
        () => false,
      )
    )
      return at;
    if (dirname(at) === at) return start;
  }
}

/** A relative path as a URI reference: `/` separators, each segment percent-encoded (RFC 3986). */
function uriOf(path: string): string {
  return path.split(sep).join('/').split('/').map(encodeURIComponent).join('/');
}

/**
 * The SARIF log of `problems` found in the theme folder `dir`, with paths relative to `root` (see
 * {@link sourceRoot}). A problem of the theme as a whole (path `.`) is placed on the folder's manifest.
 */
export function sarifLog(problems: readonly CheckProblem[], dir: string, root: string): SarifLog {
  const folder = relative(resolve(root), resolve(dir));
  const results = problems.map((problem) => {
    const path = join(folder, problem.path === '.' ? MANIFEST_FILE : problem.path);
    const region =
      problem.line === undefined
        ? { startLine: 1 }
        : { startLine: problem.line, ...(problem.column ? { startColumn: problem.column } : {}) };
    return {
      ruleId: problem.rule,
      ruleIndex: RULE_IDS.indexOf(problem.rule),
      level: problem.severity,
      message: { text: problem.message },
      locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(path), uriBaseId: '%SRCROOT%' }, region } }],
    };
  });
  const rootUri = pathToFileURL(resolve(root)).href;
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'storefront-themes',
            version: VERSION,
            semanticVersion: VERSION,
            informationUri: HELP_URI,
            rules: RULE_IDS.map((id) => ({
              id,
              name: RULES[id].name,
              shortDescription: { text: RULES[id].description },
              helpUri: HELP_URI,
              // Each result says its own level: a case twin is a warning of the `name` rule.
              defaultConfiguration: { level: 'error' },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: rootUri.endsWith('/') ? rootUri : `${rootUri}/` } },
        results,
      },
    ],
  };
}
