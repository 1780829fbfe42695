/**
 * What a template's file name and body may be (wire contract, "Themes, templates, assets").
 */
import type { TemplateContentType } from '@storefront-platform/sdk/internal';
import { HttpError } from '../../http/http-error.js';
import { parseFilePath } from './file-path.js';

/** Every theme has this template and it cannot be deleted: the preview and the storefront render it. */
export const LAYOUT_FILE_NAME = 'layout.html';

/** Largest template body, in UTF-8 bytes. */
export const MAX_TEMPLATE_BYTES = 64 * 1024;

const CONTENT_TYPES: Record<string, TemplateContentType> = { html: 'html', css: 'css', js: 'js' };

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
  const contentType = Object.hasOwn(CONTENT_TYPES, path.extension) ? CONTENT_TYPES[path.extension] : undefined;
  if (!contentType) return 'must end with .html, .css or .js';
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
