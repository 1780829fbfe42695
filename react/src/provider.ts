import { bearer } from '@storefront-platform/sdk';
import { type QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { createElement, type ReactNode, useEffect, useMemo, useState } from 'react';
import { createStorefrontClient, type StorefrontClient, type StorefrontClientOptions } from './client.js';
import { ClientContext } from './context.js';
import { invalidateUrls } from './query-key.js';
import { defaultRetry } from './retry.js';
import type { SignInOptions } from './sign-in.js';
import { SignInContext } from './sign-in-context.js';
import { useSignInState } from './sign-in-state.js';

/** Props of {@link StorefrontProvider}: a client, or the options to make one. */
export interface StorefrontProviderProps {
  /** A client made by `createStorefrontClient`. */
  client?: StorefrontClient;
  /**
   * The options of the client the provider makes (read once; with `signIn`, a new client per token, whose `auth`
   * is the token's).
   */
  options?: StorefrontClientOptions;
  /**
   * Sign-in through the authorization server's page (`useSignIn`, `RequireSignIn`). The provider keeps the token
   * (in `signIn.storage`), completes the callback when the page is one, and forgets a token the API refuses (the
   * first 401 of a read or a write), saying so in `useSignIn().error`.
   */
  signIn?: SignInOptions;
  /** TanStack's client; default: the one of the `QueryClientProvider` above. */
  queryClient?: QueryClient;
  children?: ReactNode;
}

/**
 * Gives the hooks below it their client, and refetches, after each write, the queries whose responses the SDK's
 * HTTP cache dropped.
 */
export function StorefrontProvider(props: StorefrontProviderProps): ReactNode {
  const inner = createElement(Storefront, props);
  return props.queryClient ? createElement(QueryClientProvider, { client: props.queryClient }, inner) : inner;
}

/** A short tag of a token for query keys (FNV-1a, 32 bits): tells tokens apart without showing one. */
function tokenTag(token: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16);
}

function Storefront({
  client: given,
  options: optionsGiven,
  signIn: signInOptions,
  children,
}: StorefrontProviderProps): ReactNode {
  const queryClient = useQueryClient();
  // Before the first query below is built (children render after this, their queries' effects too).
  useMemo(() => defaultRetry(queryClient), [queryClient]);
  // Read once: an app writes its options inline, a new object each render, and a new client would drop the cache.
  const [options] = useState(optionsGiven);
  const signIn = useSignInState(signInOptions, queryClient);
  const token = signIn?.token;
  const client = useMemo(() => {
    if (given) return given;
    if (!options) throw new TypeError('StorefrontProvider: give it a client or options');
    if (!token) return createStorefrontClient(options);
    // Queries of each token apart, whatever route the token came by (a hydration, a sign-in): what one token read
    // is never shown to another's client, and a 401 answered to an earlier token's request is not this one's.
    const key = `${options.key ?? 'default'} ${tokenTag(token.accessToken)}`;
    return createStorefrontClient({ ...options, key, auth: bearer(token.accessToken) });
  }, [given, options, token]);

  useEffect(
    () =>
      client.onInvalidate((dropped) => {
        void invalidateUrls(queryClient, client, dropped);
      }),
    [client, queryClient],
  );

  const refused = signIn?.token === undefined ? undefined : signIn.refused;
  useEffect(() => {
    // Only a held token can be the cause, and only this token's client hears it: a 401 answered to another client
    // (signed out, an earlier token) is not this token's.
    if (!refused) return;
    // Any 401 of this client (a read, a page, a write; the first attempt, not the last of TanStack's retries): the
    // API no longer takes the token (expired, revoked), and one the page holds cannot be renewed, so sign in again.
    return client.on('response', ({ status }) => {
      if (status === 401) refused();
    });
  }, [client, refused]);

  const content = createElement(ClientContext.Provider, { value: client }, children);
  return signIn ? createElement(SignInContext.Provider, { value: signIn }, content) : content;
}
