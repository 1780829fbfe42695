/**
 * The page script of the browser example: signs in with the authorization code flow and PKCE (a browser app has
 * no client secret, so it exchanges the code as a public client), then lists a shop's products with the SDK, page by page.
 * Bundled with the SDK by `serve.ts`.
 */
import {
  bearer,
  createClient,
  createHttpCache,
  type ProductList,
  type Shop,
  type TokenInfo,
  UnauthorizedError,
} from '@storefront-platform/sdk';
import { startSignIn, tokenFromRedirect } from './sign-in.js';

/** What the server of this page tells it: where the API is and which app this page is (never its secret). */
interface PageConfig {
  /** `{auth_url}`: the authorize endpoint is `{authUrl}/oauth/authorize`. */
  authUrl: string;
  /** `{base_url}`, the API root. */
  baseUrl: string;
  clientId: string;
}

const KEYS = { token: 'storefront-example:token', state: 'storefront-example:state' };

const element = <E extends HTMLElement>(id: string) => document.getElementById(id) as E;
const status = element<HTMLParagraphElement>('status');
const catalog = element<HTMLElement>('catalog');
const signIn = element<HTMLButtonElement>('sign-in');
const shopSelect = element<HTMLSelectElement>('shop');
const query = element<HTMLInputElement>('query');
const rows = element<HTMLTableSectionElement>('products');
const prev = element<HTMLButtonElement>('prev');
const next = element<HTMLButtonElement>('next');
const pageLabel = element<HTMLSpanElement>('page');

function show(message: string, isError = false): void {
  status.textContent = message;
  status.className = isError ? 'error' : '';
}

/** The token kept for this tab, unless it has expired. */
function savedToken(): TokenInfo | undefined {
  const text = sessionStorage.getItem(KEYS.token);
  const token = text ? (JSON.parse(text) as TokenInfo) : undefined;
  return token && (token.expiresAt === undefined || token.expiresAt > Date.now()) ? token : undefined;
}

function render(list: ProductList, shop: Shop): void {
  const { currency_code: currency, locale } = shop.properties;
  const price = new Intl.NumberFormat(locale, { style: 'currency', currency });
  rows.replaceChildren(
    ...list.pageItems.map((product) => {
      const row = document.createElement('tr');
      const cells = [product.properties.title, product.properties.status, price.format(product.properties.price / 100)];
      for (const [i, text] of cells.entries()) {
        const cell = row.insertCell();
        // textContent, never innerHTML: product data is not markup.
        cell.textContent = text;
        if (i === 2) cell.className = 'price';
      }
      return row;
    }),
  );
  const { page, per_page: perPage, total_items: total } = list.properties;
  pageLabel.textContent = `Page ${page} of ${Math.max(1, Math.ceil(total / perPage))} · ${total} products`;
  prev.disabled = !list.can('prev');
  next.disabled = !list.can('next');
}

async function start(): Promise<void> {
  const config = (await (await fetch('/config.json')).json()) as PageConfig;
  const token = (await tokenFromRedirect(config, KEYS)) ?? savedToken();
  signIn.onclick = () => void startSignIn(config, 'public', KEYS).catch((error: Error) => show(error.message, true));
  if (!token) {
    show('Sign in to read the products of your shops.');
    signIn.hidden = false;
    return;
  }

  // A token cannot be renewed without the client secret (the JWT bearer grant's key): when it expires, sign in again.
  const client = createClient({ baseUrl: config.baseUrl, auth: bearer(token.accessToken), cache: createHttpCache() });
  const root = await client.root();
  const shops = root.embedded('shops');
  shopSelect.replaceChildren(...shops.map((shop) => new Option(shop.properties.name, shop.properties.id)));
  show(`Signed in as ${root.properties.user_name}.`);
  catalog.hidden = false;

  let current: { list: ProductList; shop: Shop } | undefined;
  const load = async (step: (shop: Shop) => Promise<ProductList>) => {
    const summary = shops.find((shop) => shop.properties.id === shopSelect.value) ?? shops[0];
    if (!summary) return show('You administer no shop.', true);
    const shop = current?.shop.properties.id === summary.properties.id ? current.shop : await summary.follow('self');
    current = { list: await step(shop), shop };
    render(current.list, shop);
  };
  const search = () => load((shop) => shop.follow('svc:products', { q: query.value || undefined, per_page: 10 }));
  const guard = (action: () => Promise<void>) => () =>
    void action().catch((error: unknown) => {
      if (error instanceof UnauthorizedError) {
        sessionStorage.removeItem(KEYS.token);
        catalog.hidden = true;
        signIn.hidden = false;
        return show('Your session has expired: sign in again.', true);
      }
      show((error as Error).message, true);
    });

  element<HTMLFormElement>('search').onsubmit = (event) => {
    event.preventDefault();
    guard(search)();
  };
  shopSelect.onchange = guard(search);
  prev.onclick = guard(() => load(() => current!.list.follow('prev')));
  next.onclick = guard(() => load(() => current!.list.follow('next')));
  element<HTMLButtonElement>('sign-out').onclick = () => {
    sessionStorage.removeItem(KEYS.token);
    location.reload();
  };
  guard(search)();
}

start().catch((error: unknown) => {
  if (error instanceof UnauthorizedError) {
    // A saved token the server no longer accepts (expired early, or the server's data was reset).
    sessionStorage.removeItem(KEYS.token);
    signIn.hidden = false;
    return show('Your session has expired: sign in again.', true);
  }
  show((error as Error).message, true);
});
