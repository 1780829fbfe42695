/**
 * Reading an asset upload: JSON `{file_name, data}` with `data` in base64, or `multipart/form-data` with a
 * `file` part (parsed by the platform's own `Response.formData()`, so it runs in Node and browsers alike).
 */

import { decodeBase64 } from '@storefront-platform/sdk/internal';
import { MAX_BODY_BYTES } from '../../core/body-limit.js';
import type { CoreRequest } from '../../core/types.js';
import { badRequest, HttpError, validationError } from '../../http/http-error.js';
import { type BodySpec, isJsonType, readBytes, readJson } from '../../http/json-body.js';
import { type AssetFile, checkAssetFile } from './asset-file.js';

/** A data URL's head, as when base64 is copied from a browser: `data` may start with it. */
const DATA_URL_PREFIX = /^data:[^,]*;base64,/i;

const JSON_SPEC = {
  file_name: { type: 'string', required: true },
  data: { type: 'string', required: true },
} as const satisfies BodySpec;

/** Form fields of a multipart upload: the file, and optionally a name to store it under. */
const FORM_FIELDS = ['file', 'file_name'];

function isMultipart(contentType: string): boolean {
  return contentType.split(';', 1)[0]!.trim().toLowerCase() === 'multipart/form-data';
}

async function fromJson(request: CoreRequest): Promise<AssetFile> {
  const body = await readJson(request, JSON_SPEC, MAX_BODY_BYTES);
  const bytes = decodeBase64(body.data.replace(DATA_URL_PREFIX, ''));
  if (!bytes) throw validationError('data', 'must be base64 (RFC 4648 §4; line breaks and a data: prefix are allowed)');
  return checkAssetFile(body.file_name, bytes, 'data');
}

async function fromForm(request: CoreRequest, contentType: string): Promise<AssetFile> {
  const bytes = await readBytes(request, MAX_BODY_BYTES);
  let form: FormData;
  try {
    form = await new Response(bytes as BodyInit, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw badRequest('Malformed multipart/form-data body');
  }
  for (const key of new Set(form.keys())) {
    if (!FORM_FIELDS.includes(key)) throw validationError(key, `unknown field; accepted: ${FORM_FIELDS.join(', ')}`);
    if (form.getAll(key).length > 1) throw validationError(key, 'must be sent once');
  }
  const file = form.get('file');
  if (file === null) throw validationError('file', 'is required');
  if (typeof file === 'string') throw validationError('file', 'must be a file part (with a filename)');
  const name = form.get('file_name');
  if (name !== null && typeof name !== 'string') throw validationError('file_name', 'must be a text field');
  return checkAssetFile(name ?? file.name, new Uint8Array(await file.arrayBuffer()), 'file');
}

/** The checked file of an upload; 415 for any other body type. */
export function readAssetUpload(request: CoreRequest): Promise<AssetFile> {
  const contentType = request.headers.get('content-type');
  if (isJsonType(contentType)) return fromJson(request);
  if (contentType && isMultipart(contentType)) return fromForm(request, contentType);
  throw new HttpError(415, 'Unsupported body type: send application/json or multipart/form-data');
}
