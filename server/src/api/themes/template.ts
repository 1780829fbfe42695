/**
 * A template: what its file name and body may be (wire contract, "Themes, templates, assets"), the lost-update
 * guard of its writes, and the writes themselves.
 *
 * The guard is `last_updated_on`, the `updated_on` the client last saw. Sent as that string, it names one version
 * exactly (every write moves `updated_on` by at least a millisecond, see `nextTimestamp`). Sent as epoch seconds
 * (older clients), it names a second: accepted only when the template had one version in that second, since a
 * client holding that second may otherwise hold the older one (the reason `Last-Modified` turns weak then). A
 * refused guard is a 422 on `updated_on`, and nothing is written.
 *
 * Each write runs inside one store transaction: create or upsert by file name, update, delete. All checks run
 * before the first staged change, and a thrown error discards the transaction anyway.
 */

import type { TemplateContentType } from '@storefront-platform/sdk/internal';
import { API_LIMITS } from '@storefront-platform/sdk/internal';
import { HttpError, validationError } from '../../http/http-error.js';
import type { TemplateRow, ThemeRow, Transaction } from '../../store/types.js';
import { parseFilePath } from './file-path.js';
import { assertRoomForTemplate, nextTimestamp, touchTheme } from './theme.js';

/** Every theme has this template and it cannot be deleted: the preview and the storefront render it. */
export const LAYOUT_FILE_NAME = 'layout.html';

/** Largest template body, in UTF-8 bytes. */
export const MAX_TEMPLATE_BYTES = API_LIMITS.templateBytes;

/** A template's content type by extension: the compiler holds it to the contract's `TemplateContentType`. */
const CONTENT_TYPES: { readonly [T in TemplateContentType]: T } = { html: 'html', css: 'css', js: 'js' };

/** The extensions, for messages: `.html, .css or .js`. */
const EXTENSIONS = Object.keys(CONTENT_TYPES)
  .map((extension) => `.${extension}`)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

/** A valid template file name with what derives from it. */
export interface TemplateFile {
  file_name: string;
  /** The file name without its extension. */
  name: string;
  content_type: TemplateContentType;
}

/** Parses a template file name; a string is the message of a 422 on `file_name`. */
export function parseTemplateFileName(value: unknown): TemplateFile | string {
  const path = parseFilePath(value);
  if (typeof path === 'string') return path;
  const contentType = Object.hasOwn(CONTENT_TYPES, path.extension)
    ? CONTENT_TYPES[path.extension as TemplateContentType]
    : undefined;
  if (!contentType) return `must end with ${EXTENSIONS}`;
  return { file_name: path.fileName, name: path.stem, content_type: contentType };
}

const encoder = new TextEncoder();

/** Throws 413 when a template body is over {@link MAX_TEMPLATE_BYTES}. */
export function checkTemplateBody(body: string): void {
  // UTF-8 takes at most 3 bytes per UTF-16 unit, so short bodies skip the encoding.
  if (body.length * 3 > MAX_TEMPLATE_BYTES && encoder.encode(body).byteLength > MAX_TEMPLATE_BYTES) {
    throw new HttpError(413, `Template body too large: at most ${MAX_TEMPLATE_BYTES} bytes (UTF-8)`);
  }
}

/** Whether a template may be deleted. */
export function isDeletableTemplate(fileName: string): boolean {
  return fileName !== LAYOUT_FILE_NAME;
}

/**
 * What template writes keep on a row besides the store's fields: the `updated_on` of the version this one
 * replaced, which tells whether a second saw more than one version. Absent on a template never updated, and on
 * rows last written before it was kept (taken as one version in their second).
 */
export interface TemplateHistory {
  previous_updated_on?: string;
}

/** A template row with what the guard keeps on it. */
export type GuardedTemplateRow = TemplateRow & TemplateHistory;

/** `last_updated_on` as a client sends it: the `updated_on` it saw, or that instant in whole epoch seconds. */
export type LastSeen = number | string;

/** `updated_on` as the API writes it: ISO 8601 UTC with milliseconds. */
const UPDATED_ON = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const secondOf = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function stale(template: TemplateRow, lastSeen: LastSeen): Error {
  return validationError(
    'updated_on',
    `the template changed since you last saw it (now ${template.updated_on}, you sent ${lastSeen}); reload it and retry`,
  );
}

/**
 * A 422 on `last_updated_on` for a string that is not an `updated_on`: checked with the rest of the body, also
 * where no template has that name yet, so that a client's mistake shows on its first write.
 */
export function checkLastSeen(lastSeen: LastSeen | undefined): void {
  if (typeof lastSeen === 'string' && (!UPDATED_ON.test(lastSeen) || Number.isNaN(Date.parse(lastSeen)))) {
    throw validationError(
      'last_updated_on',
      'must be the updated_on you last saw (e.g. 2025-01-31T12:00:00.123Z), or it in epoch seconds',
    );
  }
}

/**
 * Throws a 422 on `updated_on` unless the client saw `template` as it is now (`lastSeen` checked by
 * {@link checkLastSeen}). `lastSeen` undefined: an unguarded write, allowed.
 */
export function assertLastSeen(template: GuardedTemplateRow, lastSeen: LastSeen | undefined): void {
  if (lastSeen === undefined) return;
  if (typeof lastSeen === 'string') {
    if (Date.parse(lastSeen) !== Date.parse(template.updated_on)) throw stale(template, lastSeen);
    return;
  }
  const second = secondOf(template.updated_on);
  if (lastSeen !== second) throw stale(template, lastSeen);
  const previous = template.previous_updated_on;
  if (previous !== undefined && secondOf(previous) === second) {
    throw validationError(
      'updated_on',
      `the template changed more than once within second ${second}, so epoch seconds cannot tell which version you ` +
        'saw; reload it and send its updated_on as last_updated_on (to the millisecond), or If-Match with its ETag',
    );
  }
}

/** A checked create/upsert request. */
export interface TemplateCreate {
  file_name: string;
  body: string;
  /** The `updated_on` the client last saw of the template with that name (see `assertLastSeen`). */
  last_updated_on?: LastSeen;
}

/** A checked update request. */
export interface TemplateUpdate {
  file_name?: string;
  body?: string;
  /** The `updated_on` the client last saw (see `assertLastSeen`). */
  last_updated_on?: LastSeen;
}

/** The change that makes `template`'s next version at `now`, remembering the version it replaces. */
function nextVersion(template: TemplateRow, now: number): Partial<TemplateRow> {
  const patch: Partial<GuardedTemplateRow> = {
    updated_on: nextTimestamp(template.updated_on, now),
    previous_updated_on: template.updated_on,
  };
  return patch;
}

function findByName(tx: Transaction, themeId: string, fileName: string): TemplateRow | undefined {
  return tx.where('templates', 'theme_id', themeId).find((t) => t.file_name === fileName);
}

/**
 * Creates a template, or updates the one with that file name; `created` tells which (201 or 200). `guard` checks
 * the template the name holds (`undefined`: none) before anything changes: the request's preconditions.
 */
export function saveTemplate(
  tx: Transaction,
  theme: ThemeRow,
  input: TemplateCreate,
  now: number,
  guard: (existing: TemplateRow | undefined) => void,
): { template: TemplateRow; created: boolean } {
  const existing = findByName(tx, theme.id, input.file_name);
  guard(existing);
  if (existing) {
    assertLastSeen(existing, input.last_updated_on);
    touchTheme(tx, theme, now);
    const template = tx.update('templates', existing.id, { ...nextVersion(existing, now), body: input.body });
    return { template, created: false };
  }
  assertRoomForTemplate(tx, theme);
  touchTheme(tx, theme, now);
  const stamp = new Date(now).toISOString();
  const template = tx.insert('templates', {
    theme_id: theme.id,
    file_name: input.file_name,
    body: input.body,
    created_on: stamp,
    updated_on: stamp,
  });
  return { template, created: true };
}

/** Updates a template's body and/or renames it; file names stay unique and `layout.html` stays. */
export function updateTemplate(
  tx: Transaction,
  theme: ThemeRow,
  template: TemplateRow,
  input: TemplateUpdate,
  now: number,
): TemplateRow {
  assertLastSeen(template, input.last_updated_on);
  const patch = nextVersion(template, now);
  if (input.body !== undefined) patch.body = input.body;
  if (input.file_name !== undefined && input.file_name !== template.file_name) {
    if (template.file_name === LAYOUT_FILE_NAME) {
      throw validationError('file_name', `${LAYOUT_FILE_NAME} is required and cannot be renamed`);
    }
    if (findByName(tx, theme.id, input.file_name)) {
      throw validationError('file_name', `another template is already named ${input.file_name}`);
    }
    patch.file_name = input.file_name;
  }
  touchTheme(tx, theme, now);
  return tx.update('templates', template.id, patch);
}

/** Deletes a template; `layout.html` is a 422. */
export function deleteTemplate(tx: Transaction, theme: ThemeRow, template: TemplateRow, now: number): void {
  if (!isDeletableTemplate(template.file_name)) {
    throw validationError('file_name', `${LAYOUT_FILE_NAME} is required and cannot be deleted`);
  }
  touchTheme(tx, theme, now);
  tx.delete('templates', template.id);
}
