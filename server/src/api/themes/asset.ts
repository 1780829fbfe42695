/**
 * A theme asset: an uploaded file (JSON `{file_name, data}` with `data` in base64, or `multipart/form-data` with a
 * `file` part, parsed by the platform's own `Response.formData()` so that it runs in Node and browsers alike), its
 * name checked against the shared file-name rule and an allowed extension, its bytes against that extension's file
 * format, its size capped, its MD5 digest computed; its writes, metadata in `assets` and bytes in `files` under the
 * same id so that listing assets never loads files; and its stored bytes, checked against its row, since a file
 * link must never answer for bytes that are not there (data damaged by hand, or written by a version whose
 * multi-file writes a crash could cut in half).
 *
 * Each allowed extension is checked against the file's own bytes so that a file is served only with the media
 * type its content really has: a PNG named `.gif` is refused, and so is anything that merely starts like a PNG
 * (the SDK's `checkAssetContent`, which apps and the themes CLI run before uploading).
 */
import { checkAssetContent } from '@storefront-platform/sdk/assets';
import { API_LIMITS, ASSET_EXTENSIONS, decodeBase64 } from '@storefront-platform/sdk/internal';

import { MAX_BODY_BYTES } from '../../core/body-limit.js';
import type { CoreRequest } from '../../core/types.js';
import { badRequest, HttpError, validationError } from '../../http/http-error.js';
import { isJsonType, readBytes } from '../../http/json-body.js';
import { md5Hex } from '../../shared/md5.js';
import type { AssetRow, Store, ThemeRow, Transaction } from '../../store/types.js';
import { readBody } from '../contract-schemas.js';
import { parseFilePath } from './file-path.js';
import { assertRoomForAsset, nextTimestamp, touchTheme } from './theme.js';

/** Largest asset file, in bytes. */
export const MAX_ASSET_BYTES = API_LIMITS.assetBytes;

/** A checked asset file, ready to store. */
export interface AssetFile {
  file_name: string;
  content_type: string;
  /** MD5 hex of the bytes (what the original CLI compares). */
  digest: string;
  file_size: number;
  bytes: Uint8Array;
}

/** The MD5 hex digest of `bytes`. */
export function assetDigest(bytes: Uint8Array): string {
  return md5Hex(bytes);
}

/**
 * Checks a file, throwing 413 past {@link MAX_ASSET_BYTES} and 422 on `file_name` for the name or on
 * `dataField` for the content (`data` in a JSON upload, `file` in a multipart one).
 */
export function checkAssetFile(fileName: unknown, bytes: Uint8Array, dataField: 'data' | 'file'): AssetFile {
  if (bytes.byteLength > MAX_ASSET_BYTES) {
    throw new HttpError(413, `Asset file too large: at most ${MAX_ASSET_BYTES} bytes`);
  }
  const path = parseFilePath(fileName);
  if (typeof path === 'string') throw validationError('file_name', path);
  const content = checkAssetContent(path.fileName, bytes);
  if (!content) throw validationError('file_name', `must end with one of .${ASSET_EXTENSIONS.join(', .')}`);
  if (content.problem) throw validationError(dataField, content.problem);
  return {
    file_name: path.fileName,
    content_type: content.mediaType,
    digest: assetDigest(bytes),
    file_size: bytes.byteLength,
    bytes,
  };
}

/** A data URL's head, as when base64 is copied from a browser: `data` may start with it. */
const DATA_URL_PREFIX = /^data:[^,]*;base64,/i;

/** Form fields of a multipart upload: the file, and optionally a name to store it under. */
const FORM_FIELDS = ['file', 'file_name'];

function isMultipart(contentType: string): boolean {
  return contentType.split(';', 1)[0]!.trim().toLowerCase() === 'multipart/form-data';
}

async function fromJson(request: CoreRequest): Promise<AssetFile> {
  const body = await readBody(request, 'theme', 'svc:create_theme_asset', MAX_BODY_BYTES);
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

/** The asset's bytes, or why they cannot be served. */
export type StoredAssetBytes = { bytes: Uint8Array; problem?: undefined } | { problem: string };

/** The bytes stored for `asset`, checked to be there, whole and of the digest its row claims. */
export function storedAssetBytes(store: Pick<Store, 'get'>, asset: AssetRow): StoredAssetBytes {
  const row = store.get('files', asset.id);
  if (!row) return { problem: 'its bytes are missing' };
  const bytes = decodeBase64(row.data);
  if (!bytes) return { problem: 'its stored bytes are not valid base64' };
  if (bytes.length !== asset.file_size || assetDigest(bytes) !== asset.digest) {
    return { problem: `its stored bytes (${bytes.length}) do not match its size (${asset.file_size}) and digest` };
  }
  return { bytes };
}

/** How a log line names an asset: enough for the data's owner to find it. */
export function describeAsset(asset: AssetRow): string {
  return `asset ${asset.id} (${asset.file_name} of theme ${asset.theme_id})`;
}

/**
 * The start's check of stored data: each asset whose bytes are missing or not those of its digest is reported in
 * one line to `report` and deleted, row and bytes, in one write. Deleted rather than kept: a row that stays claims
 * a file nobody can read, and the themes CLI, comparing digests, would call the theme up to date and never send it
 * again; gone, the asset shows as missing and the next push uploads it. Returns how many were removed.
 */
export async function removeAssetsWithoutBytes(store: Store, report: (line: string) => void): Promise<number> {
  const broken = store.all('assets').flatMap((asset) => {
    const { problem } = storedAssetBytes(store, asset);
    return problem === undefined ? [] : [{ asset, problem }];
  });
  if (broken.length === 0) return 0;
  await store.write((tx) => {
    for (const { asset } of broken) {
      tx.delete('assets', asset.id);
      tx.delete('files', asset.id);
    }
  });
  for (const { asset, problem } of broken) {
    report(`${describeAsset(asset)}: ${problem}; removed it, upload the file again`);
  }
  return broken.length;
}

/** Stores a file as a new asset, or replaces the asset with the same file name; `created` tells which. */
export function saveAsset(
  tx: Transaction,
  theme: ThemeRow,
  file: AssetFile,
  /** The bytes in base64, as stored. */
  data: string,
  now: number,
  /** Checks the asset the file name holds (`undefined`: none) before anything changes: the preconditions. */
  guard: (existing: AssetRow | undefined) => void,
): { asset: AssetRow; created: boolean } {
  const fields = { content_type: file.content_type, digest: file.digest, file_size: file.file_size };
  const existing = tx.where('assets', 'theme_id', theme.id).find((a) => a.file_name === file.file_name);
  guard(existing);
  assertRoomForAsset(tx, theme, file.file_size, existing?.file_size);
  touchTheme(tx, theme, now);
  if (existing) {
    const asset = tx.update('assets', existing.id, { ...fields, updated_on: nextTimestamp(existing.updated_on, now) });
    if (tx.get('files', existing.id)) tx.update('files', existing.id, { data });
    else tx.insert('files', { id: existing.id, data });
    return { asset, created: false };
  }
  const stamp = new Date(now).toISOString();
  const asset = tx.insert('assets', {
    theme_id: theme.id,
    file_name: file.file_name,
    ...fields,
    created_on: stamp,
    updated_on: stamp,
  });
  tx.insert('files', { id: asset.id, data });
  return { asset, created: true };
}

/** Deletes an asset and its bytes. */
export function deleteAsset(tx: Transaction, theme: ThemeRow, asset: AssetRow, now: number): void {
  touchTheme(tx, theme, now);
  tx.delete('assets', asset.id);
  if (tx.get('files', asset.id)) tx.delete('files', asset.id);
}
