/** What a theme's title and settings may be. */
import { HttpError, validationError } from '../../http/http-error.js';

/** Longest theme title, in characters. */
export const MAX_TITLE_LENGTH = 200;
/** Largest settings object, in bytes of its JSON. */
export const MAX_SETTINGS_BYTES = 64 * 1024;
const MAX_SETTINGS_DEPTH = 16;

/** Checks a theme title; throws a 422 on `title`. */
export function checkTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed === '') throw validationError('title', 'must not be empty');
  if (trimmed.length > MAX_TITLE_LENGTH)
    throw validationError('title', `must be at most ${MAX_TITLE_LENGTH} characters`);
  return trimmed;
}

/**
 * Checks a settings object: at most 64 KiB as JSON (413), nested at most 16 deep, and no `__proto__` key at
 * any depth, which a client merging settings into its own objects could mistake for the prototype (422).
 */
export function checkSettings(settings: Record<string, unknown>): Record<string, unknown> {
  // Depth first: serialising a deeply nested value would overflow the stack.
  const walk = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null) return;
    if (depth > MAX_SETTINGS_DEPTH)
      throw validationError('settings', `must be nested at most ${MAX_SETTINGS_DEPTH} deep`);
    for (const [key, member] of Object.entries(value)) {
      if (key === '__proto__') throw validationError('settings', 'must not contain a "__proto__" key');
      walk(member, depth + 1);
    }
  };
  walk(settings, 1);
  const json = JSON.stringify(settings);
  if (new TextEncoder().encode(json).byteLength > MAX_SETTINGS_BYTES) {
    throw new HttpError(413, `Theme settings too large: at most ${MAX_SETTINGS_BYTES} bytes as JSON`);
  }
  // A fresh parse: the stored object shares nothing with the request's.
  return JSON.parse(json) as Record<string, unknown>;
}
