/** What the server tells the page in its `<meta>` tags: where the API is, and the explorer's client id. */

export interface ExplorerConfig {
  /** `{base_url}`, the API root. */
  baseUrl: string;
  /** `{auth_url}`: the authorize endpoint is `{authUrl}/oauth/authorize`. */
  authUrl: string;
  clientId: string;
}

function meta(name: string): string {
  const value = document.querySelector<HTMLMetaElement>(`meta[name="storefront:${name}"]`)?.content;
  if (!value) throw new Error(`The explorer page has no storefront:${name}`);
  return value;
}

export function readConfig(): ExplorerConfig {
  return { baseUrl: meta('base-url'), authUrl: meta('auth-url'), clientId: meta('client-id') };
}

/**
 * The nonce this page's `<style>` elements need under its Content-Security-Policy (the code editor adds its own;
 * the page's script carries the same one); `undefined` when the page has none.
 */
export function styleNonce(): string | undefined {
  return document.querySelector<HTMLMetaElement>('meta[name="storefront:nonce"]')?.content || undefined;
}
