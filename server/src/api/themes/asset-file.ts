/**
 * An uploaded asset file: its name checked against the shared file-name rule and an allowed extension,
 * its bytes checked against that extension's signature, its size capped, its MD5 digest computed.
 */
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { FieldError } from '../../../../sdk/src/contract/index.js';
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
 * Checks a file; the field errors name `file_name` for the name and `dataField` for the content (`data`
 * in a JSON upload, `file` in a multipart one). An oversize file is reported apart because it is a 413.
 */
export function checkAssetFile(
  fileName: unknown,
  bytes: Uint8Array,
  dataField: 'data' | 'file',
): AssetFile | { errors: FieldError[] } | 'too_large' {
  if (bytes.byteLength > MAX_ASSET_BYTES) return 'too_large';
  const path = parseFilePath(fileName);
  if (typeof path === 'string') return { errors: [{ field: 'file_name', messages: [path] }] };
  const type = assetTypeOf(path.extension);
  if (!type) {
    return { errors: [{ field: 'file_name', messages: [`must end with one of .${ASSET_EXTENSIONS.join(', .')}`] }] };
  }
  if (bytes.byteLength === 0) return { errors: [{ field: dataField, messages: ['must not be empty'] }] };
  if (!type.matches(bytes)) {
    return { errors: [{ field: dataField, messages: [`is not a .${path.extension} file (${type.mediaType})`] }] };
  }
  return {
    file_name: path.fileName,
    content_type: type.mediaType,
    digest: assetDigest(bytes),
    file_size: bytes.byteLength,
    bytes,
  };
}
