import type { TokenInfo } from '@storefront-platform/sdk';
import { createContext, createElement, type ReactNode, useContext } from 'react';

/** The sign-in state of a `StorefrontProvider` given `signIn`. */
export interface SignIn {
  /** The token, while signed in. */
  token: TokenInfo | undefined;
  /** True while the authorization code is being exchanged (code flow). */
  pending: boolean;
  /**
   * Why the last sign-in failed (denied, a state mismatch, the exchange's error), or why the provider signed out by
   * itself (the API refused the token: a 401).
   */
  error: Error | undefined;
  /** Sends the tab to the authorize page; the provider completes the sign-in when the browser comes back. */
  signIn(): Promise<void>;
  /** Forgets the token (its storage too). */
  signOut(): void;
}

export const SignInContext = createContext<SignIn | undefined>(undefined);

/** The sign-in of the nearest `StorefrontProvider`; throws when it was given no `signIn`. */
export function useSignIn(): SignIn {
  const signIn = useContext(SignInContext);
  if (!signIn) throw new Error('useSignIn: the StorefrontProvider above has no signIn options');
  return signIn;
}

/** Props of {@link RequireSignIn}. */
export interface RequireSignInProps {
  children?: ReactNode;
  /** Shown while signed out; default: a "Sign in" button (and the error of a failed sign-in). */
  fallback?: ReactNode | ((signIn: SignIn) => ReactNode);
}

/** Renders its children once signed in, else `fallback` (react-ketting's `RequireLogin`). */
export function RequireSignIn({ children, fallback }: RequireSignInProps): ReactNode {
  const signIn = useSignIn();
  if (signIn.token) return children;
  if (typeof fallback === 'function') return fallback(signIn);
  if (fallback !== undefined) return fallback;
  if (signIn.pending) return createElement('p', { role: 'status' }, 'Signing in…');
  return createElement(
    'div',
    null,
    signIn.error ? createElement('p', { role: 'alert' }, signIn.error.message) : null,
    createElement('button', { type: 'button', onClick: () => void signIn.signIn() }, 'Sign in'),
  );
}
