/**
 * A small browser app on the SDK, as an app team would write one: it signs in with the code flow and PKCE as a
 * public client (a browser keeps no secret), lists its shop's products page by page, writes a template, and shows the headers it
 * reads through CORS. The browser tests run it against the reference server on another origin, and against
 * the MSW handlers in a service worker. When the token is refused it asks to sign in again (without the secret
 * a token cannot be renewed); any other failure shows in a banner.
 */
import {
  bearer,
  createClient,
  type ProductList,
  type Shop,
  type TokenInfo,
  UnauthorizedError,
} from '@storefront-platform/sdk';
import { startSignIn, tokenFromRedirect } from '../../../examples/browser/sign-in.js';

/** Where the API is and which app this page is (never a secret). */
export interface AppConfig {
  baseUrl: string;
  authUrl: string;
  clientId: string;
}

/** Where the page keeps its token for the tab; a test bootstrap puts a token here as the redirect would. */
export const TOKEN_KEY = 'shop-app:token';
const KEYS = { token: TOKEN_KEY, state: 'shop-app:state' };

const element = <E extends HTMLElement>(id: string) => document.getElementById(id) as E;

function show(id: string, visible: boolean): void {
  element(id).hidden = !visible;
}

function say(text: string): void {
  element('status').textContent = text;
}

function fail(error: unknown): void {
  if (error instanceof UnauthorizedError) {
    sessionStorage.removeItem(TOKEN_KEY);
    show('catalog', false);
    show('sign-in', true);
    element('sign-in-message').textContent = 'Your session has expired: sign in again.';
    say('Signed out.');
    return;
  }
  const banner = element('error');
  banner.textContent = `Something went wrong: ${(error as Error).message}`;
  banner.hidden = false;
}

function renderPage(list: ProductList): void {
  element('products').replaceChildren(
    ...list.pageItems.map((product) => {
      const row = document.createElement('tr');
      row.insertCell().textContent = product.properties.title;
      row.insertCell().textContent = product.properties.status;
      return row;
    }),
  );
  const { page, per_page: perPage, total_items: total } = list.properties;
  element('page').textContent = `Page ${page} of ${Math.max(1, Math.ceil(total / perPage))} · ${total} products`;
  element<HTMLButtonElement>('prev').disabled = !list.can('prev');
  element<HTMLButtonElement>('next').disabled = !list.can('next');
  element('etag').textContent = list.response?.headers.get('etag') ?? '(none)';
}

export async function startApp(config: AppConfig): Promise<void> {
  element('sign-in-button').onclick = () => void startSignIn(config, 'admin', KEYS).catch(fail);
  const saved = sessionStorage.getItem(TOKEN_KEY);
  const token = (await tokenFromRedirect(config, KEYS)) ?? (saved ? (JSON.parse(saved) as TokenInfo) : undefined);
  if (!token) {
    show('sign-in', true);
    say('Signed out.');
    return;
  }
  const client = createClient({ baseUrl: config.baseUrl, auth: bearer(token.accessToken) });
  let shop: Shop | undefined;
  let list: ProductList | undefined;
  const guard = (action: () => Promise<void>) => () => {
    element('error').hidden = true;
    return action().catch(fail);
  };
  const load = async () => {
    const root = await client.root();
    element('scopes').textContent = root.response?.headers.get('x-oauth-scopes') ?? '(not readable)';
    const summary = root.embedded('shops')[0];
    if (!summary) throw new Error('You administer no shop');
    shop = await summary.follow('self');
    list = await shop.follow('svc:products', { per_page: 10 });
    renderPage(list);
    say(`Signed in as ${root.properties.user_name}: ${shop.properties.name}`);
    show('catalog', true);
  };
  element('next').onclick = guard(async () => {
    list = await list!.follow('next');
    renderPage(list);
  });
  element('prev').onclick = guard(async () => {
    list = await list!.follow('prev');
    renderPage(list);
  });
  element('reload').onclick = guard(load);
  element('template-form').onsubmit = (event) => {
    event.preventDefault();
    void guard(async () => {
      const theme = await shop!.follow('svc:theme');
      const body = element<HTMLTextAreaElement>('template-body').value;
      const template = await theme.follow('svc:create_template', { file_name: 'snippets/browser-test.html', body });
      const status = template.response?.status;
      element('template-result').textContent =
        `Saved ${template.properties.file_name} (${status}), updated_on ${template.properties.updated_on}`;
    })();
  };
  await guard(load)();
}
