/**
 * Standard Webhooks 1.0 signatures, on Web Crypto (the core runs in Node and, under MSW, in browsers):
 * `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed by the secret's bytes.
 */
import { decodeBase64, encodeBase64 } from '@storefront-platform/sdk/internal';

const encoder = new TextEncoder();

/** The key bytes of a `whsec_…` secret. */
function keyOf(secret: string): Uint8Array<ArrayBuffer> {
  const bytes = decodeBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  if (!bytes) throw new TypeError('A webhook secret must be whsec_ followed by base64');
  return new Uint8Array(bytes);
}

/** The `webhook-signature` value for `body`: one `v1,…` per secret, space-separated. */
export async function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const content = encoder.encode(`${id}.${timestamp}.${body}`);
  const signatures = await Promise.all(
    secrets.map(async (secret) => {
      const key = await crypto.subtle.importKey('raw', keyOf(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ]);
      return `v1,${encodeBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, content)))}`;
    }),
  );
  return signatures.join(' ');
}
