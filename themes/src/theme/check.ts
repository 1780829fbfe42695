/**
 * `check`: what the API or a shop's visitors would suffer from, found before a push or a publish. Each rule
 * reports problems with a place and a severity; `error`s make `check` fail (and stop `publish`), `warning`s are
 * said only. The rules read a theme as files with names, sizes and, for templates, text (for a folder's assets,
 * bytes): the folder's files for `check`, the development theme's on the server for `publish`.
 */
import { checkAssetContent } from '@storefront-platform/sdk/assets';
import postcss, { CssSyntaxError } from 'postcss';
import { checkHtmlStructure } from './check-html.js';
import { missingReferences } from './check-references.js';
import type { FileKind } from './layout.js';
import {
  MAX_ASSET_BYTES,
  MAX_ASSET_BYTES_PER_THEME,
  MAX_ASSETS_PER_THEME,
  MAX_TEMPLATE_BYTES,
  MAX_TEMPLATES_PER_THEME,
} from './limits.js';
import { hasConflictMarkers } from './merge.js';

/** Every theme has this template: the preview and the storefront render it. */
const LAYOUT = 'layout.html';

/** What a rule is about. */
export type CheckRule = 'name' | 'size' | 'content' | 'layout' | 'html' | 'css' | 'reference' | 'conflict-markers';

/** One problem found. */
export interface CheckProblem {
  /** The file's path in the folder (`assets/…` for an asset), or `.` for the theme as a whole. */
  path: string;
  line?: number;
  column?: number;
  severity: 'error' | 'warning';
  rule: CheckRule;
  message: string;
}

/** A file as the rules read it. */
export interface CheckedFile {
  kind: FileKind;
  /** The API's `file_name`. */
  name: string;
  path: string;
  /** Bytes (a template's in UTF-8). */
  size: number;
  /** A template's body. */
  text?: string;
  /**
   * An asset's bytes, checked against its extension's kind; absent for a theme on the server, which refused any
   * asset that is not one when it was uploaded.
   */
  bytes?: Uint8Array;
}

/** What to check: the theme's files, and paths of files whose names the API would refuse (with why). */
export interface CheckInput {
  files: readonly CheckedFile[];
  refusedNames?: readonly { path: string; reason: string }[];
}

function cssProblems(file: CheckedFile, text: string): CheckProblem[] {
  try {
    postcss.parse(text, { from: file.path });
    return [];
  } catch (error) {
    if (!(error instanceof CssSyntaxError)) throw error;
    const place = error.line === undefined ? {} : { line: error.line, column: error.column };
    return [
      { path: file.path, ...place, severity: 'error', rule: 'css', message: `CSS does not parse: ${error.reason}` },
    ];
  }
}

/** Every problem of a theme, by path then place. */
export function checkTheme({ files, refusedNames = [] }: CheckInput): CheckProblem[] {
  const problems: CheckProblem[] = [];
  const error = (path: string, rule: CheckRule, message: string, place = {}) =>
    problems.push({ path, ...place, severity: 'error', rule, message });
  for (const { path, reason } of refusedNames) error(path, 'name', `a name the API refuses: ${reason}`);
  const names = new Set(files.map((f) => f.name));
  const templates = files.filter((f) => f.kind === 'template');
  const assets = files.filter((f) => f.kind === 'asset');
  if (!names.has(LAYOUT) || !templates.some((f) => f.name === LAYOUT)) {
    error(LAYOUT, 'layout', 'missing: every theme has layout.html, which the preview and the storefront render');
  }
  if (templates.length > MAX_TEMPLATES_PER_THEME) {
    error('.', 'size', `${templates.length} templates: the API allows ${MAX_TEMPLATES_PER_THEME} per theme`);
  }
  if (assets.length > MAX_ASSETS_PER_THEME) {
    error('.', 'size', `${assets.length} assets: the API allows ${MAX_ASSETS_PER_THEME} per theme`);
  }
  const assetBytes = assets.reduce((sum, f) => sum + f.size, 0);
  if (assetBytes > MAX_ASSET_BYTES_PER_THEME) {
    error('.', 'size', `assets of ${assetBytes} bytes in all: the API allows ${MAX_ASSET_BYTES_PER_THEME}`);
  }
  const cases = new Map<string, string>();
  for (const file of files) {
    const twin = cases.get(file.path.toLowerCase());
    if (twin !== undefined) {
      problems.push({
        path: file.path,
        severity: 'warning',
        rule: 'name',
        message: `the same name as ${twin} but for case: one file on macOS and Windows`,
      });
    }
    cases.set(file.path.toLowerCase(), file.path);
    const limit = file.kind === 'template' ? MAX_TEMPLATE_BYTES : MAX_ASSET_BYTES;
    if (file.size > limit) {
      const what = file.kind === 'template' ? 'a template body' : 'an asset';
      error(file.path, 'size', `${file.size} bytes: the API allows ${limit} for ${what}`);
    }
    if (file.bytes) {
      const problem = checkAssetContent(file.name, file.bytes)?.problem;
      if (problem) error(file.path, 'content', problem);
    }
    const { text } = file;
    if (text === undefined) continue;
    if (hasConflictMarkers(text)) {
      const line = text.split('\n').findIndex((l) => /^(<<<<<<<|=======$|>>>>>>>)/.test(l)) + 1;
      error(file.path, 'conflict-markers', 'holds conflict markers of a merge: resolve them', { line, column: 1 });
    }
    const extension = file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase();
    if (extension === 'css') problems.push(...cssProblems(file, text));
    if (extension === 'html') {
      for (const { line, column, message } of checkHtmlStructure(text)) {
        error(file.path, 'html', message, { line, column });
      }
    }
    if (extension === 'css' || extension === 'html') {
      for (const { line, column, message } of missingReferences(file.name, text, (name) => names.has(name))) {
        error(file.path, 'reference', message, { line, column });
      }
    }
  }
  return problems.sort(
    (a, b) =>
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
}
