import type { TokenInfo } from '@storefront-platform/sdk';
import type { QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { QUERY_ROOT } from './query-key.js';
import { finishSignIn, type SignInOptions, sessionTokenStorage, startSignIn } from './sign-in.js';
import type { SignIn } from './sign-in-context.js';

interface SignInState {
  token: TokenInfo | undefined;
  /** The code exchange under way (code flow). */
  pending: Promise<TokenInfo> | undefined;
  error: Error | undefined;
}

/**
 * The sign-in state of a provider given `signIn`: the token (from storage, or from the callback this page is), the
 * trip to the authorize page, signing out. Every change of token first drops the bindings' queries, before anything
 * renders with the new client: what one token read is not another's to show.
 */
export function useSignInState(optionsGiven: SignInOptions | undefined, queryClient: QueryClient): SignIn | undefined {
  const [options] = useState(optionsGiven);
  const storage = useMemo(() => options?.storage ?? sessionTokenStorage(), [options?.storage]);
  const [state, setState] = useState((): SignInState => {
    if (!options) return { token: undefined, pending: undefined, error: undefined };
    try {
      const back = finishSignIn(options);
      if (back && !(back instanceof Promise)) storage.set(back);
      return {
        token: back && !(back instanceof Promise) ? back : storage.get(),
        pending: back instanceof Promise ? back : undefined,
        error: undefined,
      };
    } catch (error) {
      return { token: undefined, pending: undefined, error: error as Error };
    }
  });
  const change = useCallback(
    (next: SignInState) => {
      queryClient.removeQueries({ queryKey: [QUERY_ROOT] });
      setState(next);
    },
    [queryClient],
  );
  const { pending } = state;
  useEffect(() => {
    if (!pending) return;
    let live = true;
    pending.then(
      (token: TokenInfo) => {
        storage.set(token);
        if (live) change({ token, pending: undefined, error: undefined });
      },
      (error: Error) => live && change({ token: undefined, pending: undefined, error }),
    );
    return () => {
      live = false;
    };
  }, [pending, storage, change]);
  return useMemo(() => {
    if (!options) return undefined;
    return {
      token: state.token,
      pending: state.pending !== undefined,
      error: state.error,
      signIn: () =>
        startSignIn(options).catch((error: Error) => setState({ token: undefined, pending: undefined, error })),
      signOut: () => {
        storage.set(undefined);
        change({ token: undefined, pending: undefined, error: undefined });
      },
    };
  }, [state, storage, options, change]);
}
