/**
 * Writes of templates, inside one store transaction each: create or upsert by file name, update, delete.
 * All checks run before the first staged change, and a thrown error discards the transaction anyway.
 */
import { validationError } from '../../http/http-error.js';
import type { TemplateRow, ThemeRow, Transaction } from '../../store/types.js';
import { isDeletableTemplate, LAYOUT_FILE_NAME } from './template-file.js';
import { assertLastSeen, type GuardedTemplateRow, type LastSeen } from './template-guard.js';
import { assertRoomForTemplate } from './theme-limits.js';
import { nextTimestamp, touchTheme } from './touch.js';

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

/** Creates a template, or updates the one with that file name; `created` tells which (201 or 200). */
export function saveTemplate(
  tx: Transaction,
  theme: ThemeRow,
  input: TemplateCreate,
  now: number,
): { template: TemplateRow; created: boolean } {
  const existing = findByName(tx, theme.id, input.file_name);
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
