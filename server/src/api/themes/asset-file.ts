/**
 * An uploaded asset file: its name checked against the shared file-name rule and an allowed extension,
 * its bytes checked against that extension's file format, its size capped, its MD5 digest computed.
 */
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { HttpError, validationError } from '../../http/http-error.js';
import { ASSET_EXTENSIONS, assetTypeOf } from './asset-types.js';
import { parseFilePath } from './file-path.js';

/** Largest asset file, in bytes. */
export const MAX_ASSET_BYTES = 1024 * 1024;

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
  return bytesToHex(md5(bytes));
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
  const type = assetTypeOf(path.extension);
  if (!type) throw validationError('file_name', `must end with one of .${ASSET_EXTENSIONS.join(', .')}`);
  if (bytes.byteLength === 0) throw validationError(dataField, 'must not be empty');
  const problem = type.problem(bytes);
  if (problem) throw validationError(dataField, `is not a .${path.extension} file (${type.mediaType}): ${problem}`);
  return {
    file_name: path.fileName,
    content_type: type.mediaType,
    digest: assetDigest(bytes),
    file_size: bytes.byteLength,
    bytes,
  };
}
