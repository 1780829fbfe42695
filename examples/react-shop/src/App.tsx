/** The shop's frame: TanStack's and the Storefront providers, sign-in, the header, and the page of the address. */
import {
  RequireSignIn,
  StorefrontProvider,
  sessionTokenStorage,
  useFollow,
  useRoot,
  useSignIn,
} from '@storefront-platform/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { type ShopConfig, TOKEN_KEY } from './config.js';
import { ErrorNote } from './ErrorNote.js';
import { ProductList } from './ProductList.js';
import { ProductPage } from './ProductPage.js';
import { href, useRoute } from './route.js';
import { TemplateEditor } from './TemplateEditor.js';

export function App({ config }: { config: ShopConfig }) {
  // One per page load; the bindings' defaults otherwise (stale at once, revalidated by 304s).
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1 } } }));
  return (
    <QueryClientProvider client={queryClient}>
      <StorefrontProvider
        options={{ baseUrl: config.baseUrl }}
        signIn={{
          authUrl: config.authUrl,
          clientId: config.clientId,
          scope: 'admin',
          storage: sessionTokenStorage(TOKEN_KEY),
        }}
      >
        <RequireSignIn fallback={(signIn) => <Welcome error={signIn.error} onSignIn={signIn.signIn} />}>
          <Shop />
        </RequireSignIn>
      </StorefrontProvider>
    </QueryClientProvider>
  );
}

function Welcome({ error, onSignIn }: { error: Error | undefined; onSignIn: () => Promise<void> }) {
  return (
    <main className="welcome">
      <h1>React shop</h1>
      <p>Browse your shops’ products and edit their theme’s templates.</p>
      {error && <p role="alert">{error.message}</p>}
      <button type="button" onClick={() => void onSignIn()}>
        Sign in with the Storefront platform
      </button>
    </main>
  );
}

function Shop() {
  const route = useRoute();
  const { signOut } = useSignIn();
  const root = useRoot();
  const shops = root.data?.embedded('shops') ?? [];
  const [shopId, setShopId] = useState<string>();
  const current = shopId ?? shops[0]?.properties.id;
  const shop = useFollow(current === undefined ? undefined : root.data, 'svc:shop', { id: current ?? '' });
  if (root.error) return <ErrorNote error={root.error} />;
  return (
    <>
      <header>
        <strong>React shop</strong>
        <nav>
          <a href={href({ page: 'products' })} aria-current={route.page !== 'templates' ? 'page' : undefined}>
            Products
          </a>
          <a href={href({ page: 'templates' })} aria-current={route.page === 'templates' ? 'page' : undefined}>
            Templates
          </a>
        </nav>
        <select aria-label="Shop" value={current ?? ''} onChange={(event) => setShopId(event.target.value)}>
          {shops.map((s) => (
            <option key={s.properties.id} value={s.properties.id}>
              {s.properties.name}
            </option>
          ))}
        </select>
        <span id="user">{root.data?.properties.user_name}</span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>
        {shop.error && <ErrorNote error={shop.error} />}
        {!shop.data && !shop.error && <p role="status">Loading…</p>}
        {shop.data && route.page === 'products' && <ProductList shop={shop.data} />}
        {shop.data && route.page === 'templates' && <TemplateEditor shop={shop.data} />}
        {root.data && route.page === 'product' && <ProductPage root={root.data} shopId={route.shopId} id={route.id} />}
      </main>
    </>
  );
}
