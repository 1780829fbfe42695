/**
 * The tests' `test`: Playwright's, with the sandbox of the project's store (`use: { store }`) as a fixture, and
 * each test starting on the seed, with no fault rule, an empty journal and the clock at the real time.
 */
import { test as base } from '@playwright/test';
import { connectSandbox, type SandboxClient } from '@storefront-platform/server';
import { SANDBOX_ENV, type SandboxHandle, type StoreName } from './sandbox-handle.js';

/** The sandbox, its control API, and requests to its API as the demo app. */
export interface Sandbox extends SandboxHandle {
  control: SandboxClient;
  /** A new access token of the demo app (client credentials, scope `admin`). */
  token(): Promise<string>;
  /**
   * A request to `{origin}{path}` on a connection of its own (`Connection: close`): with several workers, each
   * such request is served by whichever worker the kernel hands its connection.
   */
  fetch(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
}

export const test = base.extend<{ freshSandbox: undefined }, { store: StoreName; sandbox: Sandbox }>({
  store: ['json', { option: true, scope: 'worker' }],
  sandbox: [
    async ({ store }, use) => {
      const json = process.env[SANDBOX_ENV[store]];
      if (!json) throw new Error(`${SANDBOX_ENV[store]} is not set: the global setup starts the sandboxes`);
      const handle = JSON.parse(json) as SandboxHandle;
      const fetchApi: Sandbox['fetch'] = (path, { token, ...init } = {}) => {
        const headers = new Headers(init.headers);
        headers.set('connection', 'close');
        if (token) headers.set('authorization', `Bearer ${token}`);
        return fetch(`${handle.origin}${path}`, { ...init, headers });
      };
      await use({
        ...handle,
        control: connectSandbox(handle.connection),
        fetch: fetchApi,
        async token() {
          const { clientId, clientSecret } = handle.credentials;
          const response = await fetchApi('/oauth/token', {
            method: 'POST',
            body: new URLSearchParams({
              grant_type: 'client_credentials',
              scope: 'admin',
              client_id: clientId,
              client_secret: clientSecret,
            }),
          });
          if (!response.ok) throw new Error(`the token endpoint answered ${response.status}`);
          return ((await response.json()) as { access_token: string }).access_token;
        },
      });
    },
    { scope: 'worker' },
  ],
  freshSandbox: [
    async ({ sandbox }, use) => {
      const { control } = sandbox;
      await control.faults.clear();
      await control.reset();
      await control.clock.set(Date.now());
      await control.journal.clear();
      await use(undefined);
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
