/**
 * A React app as `npm create vite@latest` and docs/react.md's sign-in make it: the provider's default sign-in (the
 * code flow with PKCE, back at `{origin}/callback`, the code exchanged by the page), then the root's user name.
 */
import { RequireSignIn, StorefrontProvider, useRoot } from '@storefront-platform/react';
import { QueryClient } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';

interface DevServerConfig {
  baseUrl: string;
  authUrl: string;
  clientId: string;
}

function Home() {
  const root = useRoot();
  return <p id="user">{root.data ? `Signed in as ${root.data.properties.user_name}` : 'Loading…'}</p>;
}

const config = (await (await fetch('/config.json')).json()) as DevServerConfig;
createRoot(document.getElementById('app')!).render(
  <StorefrontProvider
    queryClient={new QueryClient()}
    options={{ baseUrl: config.baseUrl }}
    signIn={{ authUrl: config.authUrl, clientId: config.clientId, scope: 'admin' }}
  >
    <RequireSignIn>
      <Home />
    </RequireSignIn>
  </StorefrontProvider>,
);
