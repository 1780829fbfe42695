// @vitest-environment happy-dom
/**
 * Sign-in through the provider: the authorization code flow with PKCE (the trip to the authorize page, the callback
 * completed through the app's exchange), a callback whose state does not match, and a token the API refuses (401),
 * which signs out. The implicit grant runs end to end in Chromium (test/browser/react-shop.test.ts).
 */
import {
  type CodeCallback,
  RequireSignIn,
  StorefrontProvider,
  sessionTokenStorage,
  type TokenStorage,
  useAction,
  useFollow,
  useRoot,
} from '@storefront-platform/react';
import { pkceChallenge, type TokenInfo } from '@storefront-platform/sdk';
import { QueryClient } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockedApi } from './support/mocked-api.js';

const api = mockedApi();
const storage = sessionTokenStorage('test:token');

function Home() {
  const root = useRoot();
  return <p data-testid="user">{root.data?.properties.user_name ?? root.error?.message ?? 'loading'}</p>;
}

function app(signIn: { flow?: 'code'; exchange?: (callback: CodeCallback) => Promise<TokenInfo> } = {}) {
  return (
    <StorefrontProvider
      queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      options={{ baseUrl: api.mock.baseUrl, retry: 0 }}
      signIn={{ authUrl: api.mock.origin, clientId: 'demo', scope: 'admin', storage, ...signIn }}
    >
      <RequireSignIn>
        <Home />
      </RequireSignIn>
    </StorefrontProvider>
  );
}

/** Clicks the default fallback's button; resolves with the authorize URL the tab was sent to. */
async function signIn(): Promise<URL> {
  const assign = vi.spyOn(location, 'assign').mockImplementation(() => {});
  await act(async () => screen.getByRole('button', { name: 'Sign in' }).click());
  await waitFor(() => expect(assign).toHaveBeenCalledOnce());
  return new URL(String(assign.mock.calls[0]![0]));
}

afterEach(() => {
  vi.restoreAllMocks();
  storage.set(undefined);
  sessionStorage.clear();
  history.replaceState(null, '', '/');
});

describe('StorefrontProvider signIn, RequireSignIn', () => {
  it('completes the authorization code flow through the app’s exchange, with the PKCE verifier of the challenge sent', async () => {
    const first = render(app({ flow: 'code', exchange: () => Promise.reject(new Error('not yet')) }));
    const authorize = await signIn();
    expect(authorize.pathname).toBe('/oauth/authorize');
    expect(authorize.searchParams.get('response_type')).toBe('code');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${location.origin}/callback`);
    first.unmount();

    // Back from the authorize page, as a new page load.
    const state = authorize.searchParams.get('state')!;
    history.replaceState(null, '', `/callback?code=the-code&state=${state}`);
    const exchanged: CodeCallback[] = [];
    // In StrictMode, as apps run in development: React renders the first mount twice, the callback is finished once.
    render(
      <StrictMode>
        {app({
          flow: 'code',
          exchange: async (callback) => {
            exchanged.push(callback);
            return api.mock.issueToken({ scope: 'admin' });
          },
        })}
      </StrictMode>,
    );
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('Dana Demo'));
    expect(exchanged).toHaveLength(1);
    expect(exchanged[0]!.state).toBe(state);
    expect(new URL(exchanged[0]!.callbackUrl).searchParams.get('code')).toBe('the-code');
    expect(await pkceChallenge(exchanged[0]!.codeVerifier)).toBe(authorize.searchParams.get('code_challenge'));
    // The callback's parameters are out of the address bar, and the token is where the app keeps it.
    expect(location.search).toBe('');
    expect(storage.get()?.accessToken).toBeTruthy();
  });

  it('refuses a callback whose state is not the one sent, and says why', async () => {
    const first = render(app());
    await signIn();
    first.unmount();
    history.replaceState(null, '', '/callback?code=stolen&state=forged');
    render(app());
    expect((await screen.findByRole('alert')).textContent).toMatch(/state/i);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(storage.get()).toBeUndefined();
  });

  it("leaves another page's own ?code= alone while a sign-in is pending (only the redirect URI's page is a callback)", async () => {
    const first = render(app({ flow: 'code', exchange: () => Promise.reject(new Error('not a callback')) }));
    await signIn();
    first.unmount();
    history.replaceState(null, '', '/products?code=SUMMER');
    render(app({ flow: 'code', exchange: () => Promise.reject(new Error('not a callback')) }));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(location.pathname + location.search).toBe('/products?code=SUMMER');
  });

  it('signs out when the API refuses the token (401), and shows the sign-in again', async () => {
    const token = await api.mock.issueToken({ scope: 'admin' });
    storage.set(token);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <StorefrontProvider
        queryClient={queryClient}
        options={{ baseUrl: api.mock.baseUrl, retry: 0 }}
        signIn={{ authUrl: api.mock.origin, clientId: 'demo', storage }}
      >
        <RequireSignIn>
          <Home />
        </RequireSignIn>
      </StorefrontProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('Dana Demo'));
    await api.mock.expireToken(token.accessToken);
    await act(() => queryClient.refetchQueries());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy());
    expect(storage.get()).toBeUndefined();
    // What the refused token read is gone with it.
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
  });

  it('signs out at the first 401, not after TanStack’s retries, and says the session ended', async () => {
    const token = await api.mock.issueToken({ scope: 'admin' });
    storage.set(token);
    function Reload() {
      const root = useRoot();
      return (
        <button type="button" onClick={() => void root.refetch()}>
          Reload
        </button>
      );
    }
    render(
      // TanStack's default options, as an app has them (three retries of a failed query, 1 + 2 + 4 s apart).
      <StorefrontProvider
        queryClient={new QueryClient()}
        options={{ baseUrl: api.mock.baseUrl, retry: 0 }}
        signIn={{ authUrl: api.mock.origin, clientId: 'demo', storage }}
      >
        <RequireSignIn>
          <Reload />
        </RequireSignIn>
      </StorefrontProvider>,
    );
    await waitFor(() => expect(api.count('GET', '/v1')).toBe(1));
    await api.mock.expireToken(token.accessToken);
    await act(async () => screen.getByRole('button', { name: 'Reload' }).click());
    // Within waitFor's second, and after the one request the API refused.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy());
    expect(api.count('GET', '/v1')).toBe(2);
    expect(screen.getByRole('alert').textContent).toMatch(/signed out: the API refused the token/i);
    expect(storage.get()).toBeUndefined();
  });

  it('signs out when the API refuses the token of a write (401), as it does for a read', async () => {
    const token = await api.mock.issueToken({ scope: 'admin' });
    storage.set(token);
    function Editor() {
      const root = useRoot();
      const shop = useFollow(root.data, 'svc:shop', { id: 1 });
      const theme = useFollow(shop.data, 'svc:theme');
      const save = useAction(theme.data?.embedded('templates')[0], 'svc:update_template');
      if (!theme.data) return <p>Loading…</p>;
      return (
        <button type="button" onClick={() => save.mutate({ body: '<h1>Saved</h1>' })}>
          Save
        </button>
      );
    }
    render(
      <StorefrontProvider
        queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
        options={{ baseUrl: api.mock.baseUrl, retry: 0 }}
        signIn={{ authUrl: api.mock.origin, clientId: 'demo', storage }}
      >
        <RequireSignIn>
          <Editor />
        </RequireSignIn>
      </StorefrontProvider>,
    );
    const save = await screen.findByRole('button', { name: 'Save' });
    await api.mock.expireToken(token.accessToken);
    await act(async () => save.click());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy());
    expect(api.requests.filter((request) => request.startsWith('PUT '))).toHaveLength(1);
    expect(storage.get()).toBeUndefined();
  });

  it('says the sign-in was denied when the user pressed Deny, without the callback’s state', async () => {
    const first = render(app());
    const authorize = await signIn();
    first.unmount();
    const state = authorize.searchParams.get('state')!;
    history.replaceState(
      null,
      '',
      `/callback?error=access_denied&error_description=The+user+denied+the+request&state=${state}`,
    );
    render(app());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Sign-in failed: The user denied the request');
    expect(alert.textContent).not.toContain(state);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('says why the code flow cannot start on a page that is no secure context (no crypto.subtle), and stays', async () => {
    const { getRandomValues } = crypto;
    vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(crypto) });
    try {
      const assign = vi.spyOn(location, 'assign').mockImplementation(() => {});
      render(app());
      await act(async () => screen.getByRole('button', { name: 'Sign in' }).click());
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toMatch(
        /^Sign-in with the code flow needs a secure context \(https:\/\/, or http:\/\/localhost or 127\.0\.0\.1\) for PKCE; http:\/\/\S+ is not one$/,
      );
      expect(assign).not.toHaveBeenCalled();
      expect(sessionStorage.length).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('reads a malformed stored token as signed out, and drops it', () => {
    sessionStorage.setItem('test:token', '{"accessTok');
    render(app());
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(sessionStorage.getItem('test:token')).toBeNull();
  });

  it('hydrates a page a server rendered signed out without a mismatch, then shows the token the browser keeps', async () => {
    const token = await api.mock.issueToken({ scope: 'admin' });
    const kept: (TokenInfo | undefined)[] = [];
    const memory = (held: TokenInfo | undefined): TokenStorage => ({
      get: () => held,
      set(next) {
        held = next;
        kept.push(next);
      },
    });
    const page = (storage: TokenStorage) => (
      <StorefrontProvider
        queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
        options={{ baseUrl: api.mock.baseUrl, retry: 0 }}
        signIn={{ authUrl: api.mock.origin, clientId: 'demo', storage }}
      >
        {/* Outside RequireSignIn: it reads the root while the page hydrates signed out (a 401), then with the token. */}
        <Home />
        <RequireSignIn>
          <Home />
        </RequireSignIn>
      </StorefrontProvider>
    );
    // The server knows no token; the browser has one.
    const container = document.createElement('div');
    container.innerHTML = renderToString(page(memory(undefined)));
    document.body.append(container);
    const mismatches: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, page(memory(token)), { onRecoverableError: (error) => mismatches.push(error) });
    });
    await waitFor(() =>
      expect([...container.querySelectorAll('[data-testid="user"]')].map((p) => p.textContent)).toEqual([
        'Dana Demo',
        'Dana Demo',
      ]),
    );
    expect(mismatches).toEqual([]);
    // The 401 of the request made while hydrating signed out is not the token's: it stays signed in.
    expect(kept).toEqual([]);
    container.remove();
  });
});
