import { createHash } from 'node:crypto';

/**
 * MD5 in hex: what the API gives as an asset's `digest`, and what the manifest keeps of every file so that a
 * change is seen without keeping a copy. Templates are digested as their UTF-8 bytes, the file's bytes on disk.
 */
export function md5(data: string | Uint8Array): string {
  return createHash('md5').update(data).digest('hex');
}
