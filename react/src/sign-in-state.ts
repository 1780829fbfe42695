import type { TokenInfo } from '@storefront-platform/sdk';
import type { QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { QUERY_ROOT } from './query-key.js';
import { finishSignIn, type SignInOptions, sessionTokenStorage, startSignIn, type TokenStorage } from './sign-in.js';
import type { SignIn } from './sign-in-context.js';

interface SignInState {
  /** The code exchange under way (code flow). */
  pending: Promise<TokenInfo> | undefined;
  error: Error | undefined;
}

/**
 * `storage` as an external store of React's: read once, then changed only through `set`, so that every change of
 * token goes through the provider (which drops the queries first).
 */
function storeOf(storage: TokenStorage) {
  const listeners = new Set<() => void>();
  let token = storage.get();
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: () => token,
    set(next: TokenInfo | undefined) {
      storage.set(next);
      token = next;
      for (const listener of listeners) listener();
    },
  };
}

/** The provider's side of a sign-in: what `useSignIn` gives, and what the provider does on a refused token. */
export interface SignInSession extends SignIn {
  /** Forgets the token the API refused (a 401), saying so in `error`. */
  refused(): void;
}

/** Why the provider signed out by itself: shown by `RequireSignIn`'s default fallback, for the app's own. */
const REFUSED = 'Signed out: the API refused the token (401), expired or revoked. Sign in again.';

/** What a server renders: nobody is signed in there (the token lives in the browser). */
const signedOutOnServer = () => undefined;

/**
 * The sign-in state of a provider given `signIn`: the token (from storage, or from the callback this page is), the
 * trip to the authorize page, signing out. Every change of token first drops the bindings' queries, before anything
 * renders with the new client: what one token read is not another's to show. The page a server rendered is
 * hydrated signed out, as the server rendered it, then rendered with the token the browser keeps.
 */
export function useSignInState(
  optionsGiven: SignInOptions | undefined,
  queryClient: QueryClient,
): SignInSession | undefined {
  const [options] = useState(optionsGiven);
  const store = useMemo(() => storeOf(options?.storage ?? sessionTokenStorage()), [options?.storage]);
  const [state, setState] = useState((): SignInState => {
    if (!options) return { pending: undefined, error: undefined };
    try {
      const back = finishSignIn(options);
      if (back && !(back instanceof Promise)) store.set(back);
      return { pending: back instanceof Promise ? back : undefined, error: undefined };
    } catch (error) {
      return { pending: undefined, error: error as Error };
    }
  });
  const stored = useSyncExternalStore(store.subscribe, store.get, signedOutOnServer);
  const token = options ? stored : undefined;
  const change = useCallback(
    (next: SignInState, nextToken: TokenInfo | undefined) => {
      queryClient.removeQueries({ queryKey: [QUERY_ROOT] });
      store.set(nextToken);
      setState(next);
    },
    [queryClient, store],
  );
  const { pending } = state;
  useEffect(() => {
    if (!pending) return;
    let live = true;
    pending.then(
      (token: TokenInfo) => {
        if (live) change({ pending: undefined, error: undefined }, token);
        else store.set(token);
      },
      (error: Error) => live && change({ pending: undefined, error }, undefined),
    );
    return () => {
      live = false;
    };
  }, [pending, store, change]);
  return useMemo(() => {
    if (!options) return undefined;
    return {
      token,
      pending: state.pending !== undefined,
      error: state.error,
      signIn: () => startSignIn(options).catch((error: Error) => setState({ pending: undefined, error })),
      signOut: () => change({ pending: undefined, error: undefined }, undefined),
      refused: () => change({ pending: undefined, error: new Error(REFUSED) }, undefined),
    };
  }, [state, token, options, change]);
}
