/**
 * An app module on the SDK: the back office of a merchant's app, signed in with the app's own credentials (the
 * client credentials grant), listing the shops it manages and renaming their production theme.
 */
import { clientCredentials, createClient, type RetryOptions } from '@storefront-platform/sdk';

/** How the app reaches the platform. */
export interface ShopAdminOptions {
  /** `{base_url}`, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  /** `{auth_url}`, where `/oauth/token` is. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** Retries of idempotent requests; the SDK's default otherwise. */
  retry?: RetryOptions | number | false;
}

/** The back office's calls. */
export interface ShopAdmin {
  /** Names of every shop, across pages. */
  shopNames(): Promise<string[]>;
  /** Renames the production theme of shop `shopId`; resolves to the title the platform stored. */
  renameTheme(shopId: string, title: string): Promise<string>;
}

export function createShopAdmin(options: ShopAdminOptions): ShopAdmin {
  const { baseUrl, authUrl, clientId, clientSecret, retry } = options;
  const client = createClient({
    baseUrl,
    auth: clientCredentials({ authUrl, clientId, clientSecret, scope: 'admin' }),
    ...(retry === undefined ? {} : { retry }),
  });

  return {
    async shopNames() {
      const shops = await (await client.root()).follow('svc:shops');
      const names: string[] = [];
      for await (const shop of shops.items()) names.push(shop.properties.name);
      return names;
    },
    async renameTheme(shopId, title) {
      const shop = await (await client.root()).follow('svc:shop', { id: shopId });
      const theme = await (await shop.follow('svc:theme')).follow('svc:update_theme', { title });
      return theme.properties.title;
    },
  };
}
