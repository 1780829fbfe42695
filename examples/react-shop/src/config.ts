/** What the page's server tells it (`/config.json`): where the API is, which app this is, and whether to mock it. */
export interface ShopConfig {
  /** `{base_url}`, the API root. */
  baseUrl: string;
  /** `{auth_url}`: the authorize page is `{authUrl}/oauth/authorize`. */
  authUrl: string;
  clientId: string;
  /** The API answered in the page by the reference server's MSW handlers (a service worker), signed in already. */
  offline?: boolean;
}

/** Where the tab keeps its token (the example's choice: session storage, gone with the tab). */
export const TOKEN_KEY = 'react-shop:token';
