/** A core over a small seeded memory store, without a shell, and an admin token of the demo user to call it with. */
import { createCore } from '../../src/core/index.js';
import type { CoreContext } from '../../src/core/types.js';
import { issueToken } from '../../src/oauth/index.js';
import { type SeedOptions, seed } from '../../src/seed/index.js';
import { createMemoryStore } from '../../src/store/index.js';

export interface SeededCore {
  core: ReturnType<typeof createCore>;
  context: CoreContext;
  /** An `admin` token of the demo user (user 1, app 1). */
  token: string;
  /** The demo app and user. */
  credentials: ReturnType<typeof seed>['credentials'];
}

export async function seededCore(
  origin: string,
  options: SeedOptions = { products: 6, orders: 2 },
): Promise<SeededCore> {
  const { dataset, credentials } = seed(options);
  const context: CoreContext = {
    store: createMemoryStore(dataset),
    clock: { now: () => Date.now() },
    addresses: { origin, baseUrl: `${origin}/v1`, authUrl: origin, staticUrl: `${origin}/static` },
    tokenTtl: 3600,
  };
  const core = createCore(context);
  const { token } = await issueToken(context, { appId: '1', userId: '1', scopes: ['admin'] });
  return { core, context, token, credentials };
}
