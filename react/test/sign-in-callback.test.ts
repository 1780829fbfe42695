// @vitest-environment happy-dom
/**
 * The callback of the authorization code flow is finished once per page load, and a second run in the same task
 * (React 18's StrictMode runs a state initializer twice in one render) gets the same exchange, not nothing.
 */
import type { TokenInfo } from '@storefront-platform/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishSignIn, type SignInOptions } from '../src/sign-in.js';

afterEach(() => {
  sessionStorage.clear();
  history.replaceState(null, '', '/');
});

/** A page load back from the authorize page with `code`, the sign-in having been started from this tab. */
function backFromAuthorize(): void {
  const redirectUri = `${location.origin}/callback`;
  sessionStorage.setItem('storefront:sign-in', JSON.stringify({ state: 's1', codeVerifier: 'v1', redirectUri }));
  history.replaceState(null, '', '/callback?code=the-code&state=s1');
}

describe('finishSignIn', () => {
  it('leaves no unhandled rejection when the exchange fails before the provider’s effect listens to it', async () => {
    backFromAuthorize();
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const exchange = () => Promise.reject(new Error('refused'));
      const finished = finishSignIn({ authUrl: 'http://auth.test', clientId: 'demo', flow: 'code', exchange });
      // A concurrent render commits, and runs effects, in a later task.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).toEqual([]);
      await expect(finished).rejects.toThrow('refused');
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('returns the same exchange when run twice in one synchronous run, and exchanges the code once', async () => {
    backFromAuthorize();
    const token: TokenInfo = { accessToken: 'from-the-exchange', tokenType: 'Bearer', scopes: ['admin'] };
    const exchange = vi.fn(async () => token);
    const options: SignInOptions = { authUrl: 'http://auth.test', clientId: 'demo', flow: 'code', exchange };
    const first = finishSignIn(options);
    const second = finishSignIn(options);
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBe(first);
    expect(exchange).toHaveBeenCalledOnce();
    expect(await second).toBe(token);
    expect(location.pathname).toBe('/');
  });

  it('gives another provider’s options nothing in the same run: the callback is the first one’s', async () => {
    backFromAuthorize();
    const token: TokenInfo = { accessToken: 'a', tokenType: 'Bearer', scopes: [] };
    const first: SignInOptions = {
      authUrl: 'http://auth.test',
      clientId: 'a',
      flow: 'code',
      exchange: async () => token,
    };
    const other: SignInOptions = { authUrl: 'http://other.test', clientId: 'b', flow: 'code', exchange: vi.fn() };
    expect(finishSignIn(first)).toBeInstanceOf(Promise);
    expect(finishSignIn(other)).toBeUndefined();
    expect(other.exchange).not.toHaveBeenCalled();
  });

  it('finds no callback afterwards: the page was taken as one once', async () => {
    backFromAuthorize();
    const exchange = vi.fn(async (): Promise<TokenInfo> => ({ accessToken: 't', tokenType: 'Bearer', scopes: [] }));
    const options: SignInOptions = { authUrl: 'http://auth.test', clientId: 'demo', flow: 'code', exchange };
    expect(finishSignIn(options)).toBeInstanceOf(Promise);
    await Promise.resolve();
    expect(finishSignIn(options)).toBeUndefined();
    expect(exchange).toHaveBeenCalledOnce();
  });
});
