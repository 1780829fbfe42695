/**
 * Global setup of the tests that run the bins as processes (vitest's `system` and `tools` projects:
 * `storefront-server`, `storefront-themes`): builds the packages whose `dist/` is stale (scripts/build-stale.ts),
 * so that the processes start from the built bins with plain `node`, as `npx` runs them. Starting from the sources
 * through tsx cost about three times the CPU of each start (1.4 s against 0.4 s), and the crash rounds and the
 * themes tests start hundreds.
 */
import { buildStale } from '../../../scripts/build-stale.js';

export default function setup(): void {
  buildStale(['sdk', 'server', 'themes']);
}
