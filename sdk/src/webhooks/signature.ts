/**
 * What signing and verifying share (Standard Webhooks 1.0): the secrets as HMAC-SHA256 keys and the signed
 * content. Web Crypto only, so that every runtime (browsers, workers, Deno, Bun, Node) runs it as is.
 */
import { decodeBase64 } from '../shared/base64.js';

/** One secret, or several while a rotation overlaps (the old one keeps signing beside the new one for 24 h). */
export type WebhookSecrets = string | readonly string[];

/**
 * The HMAC keys of `secrets`, each `whsec_` + base64 or the base64 alone. A secret that is neither is a
 * `TypeError` naming its position only: the message must not carry it into logs.
 */
export function importKeys(secrets: WebhookSecrets): Promise<CryptoKey[]> {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (!list.length) throw new TypeError('No webhook secret given');
  return Promise.all(
    list.map((secret, index) => {
      // The server's secrets start with `whsec_`; the Standard's libraries take the bare base64 too.
      const bytes = decodeBase64(secret.replace(/^whsec_/, ''));
      if (!bytes?.length) throw new TypeError(`Webhook secret #${index + 1} is not whsec_ followed by base64`);
      // Verifying signs too: one HMAC per key, compared with every signature a delivery lists.
      return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    }),
  );
}

/**
 * What is signed: `{id}.{timestamp}.` and the body (its bytes, or text as UTF-8), then `tail` (a newline the body may have lost). A `Blob`
 * joins them in one copy: a spread array of a 16 MB body held over 1 GB, and a 128 MB one crashed the process.
 */
export function signedContent(id: string, timestamp: string, body: BlobPart, tail = ''): Promise<ArrayBuffer> {
  return new Blob([`${id}.${timestamp}.`, body, tail]).arrayBuffer();
}
