/**
 * An app module on the SDK: it keeps a promotional banner in a shop's production theme, as a template the
 * storefront's layout includes, on a user's admin token.
 */
import { bearer, createClient } from '@storefront-platform/sdk';

/** The file the storefront's layout includes. */
export const BANNER_FILE = 'snippets/banner.html';

/** Where the banner goes, and as whom. */
export interface BannerOptions {
  /** `{base_url}`, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  accessToken: string;
  shopId: string;
}

/** The banner of one shop. */
export interface Banner {
  /** The banner's HTML, `undefined` when the theme has none. */
  current(): Promise<string | undefined>;
  /** Stores `html` as the banner (created on first use). */
  publish(html: string): Promise<void>;
}

export function createBanner({ baseUrl, accessToken, shopId }: BannerOptions): Banner {
  // No retries: the app shows a failure at once and lets the merchant try again.
  const client = createClient({ baseUrl, auth: bearer(accessToken), retry: false });
  const theme = async () => (await (await client.root()).follow('svc:shop', { id: shopId })).follow('svc:theme');

  return {
    async current() {
      const template = (await theme()).embedded('templates').find((t) => t.properties.file_name === BANNER_FILE);
      return template && (await template.follow('self')).properties.body;
    },
    async publish(html) {
      // An existing file name makes `svc:create_template` an update.
      await (await theme()).follow('svc:create_template', { file_name: BANNER_FILE, body: html });
    },
  };
}
