import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests import the package by its public name, resolved to the sources (no build needed).
    alias: [
      { find: /^@storefront-platform\/server\/msw$/, replacement: src('./server/src/msw/index.ts') },
      { find: /^@storefront-platform\/server$/, replacement: src('./server/src/index.ts') },
      { find: /^@storefront-platform\/sdk\/internal$/, replacement: src('./sdk/src/internal.ts') },
      { find: /^@storefront-platform\/sdk\/redis$/, replacement: src('./sdk/src/redis/index.ts') },
      { find: /^@storefront-platform\/sdk$/, replacement: src('./sdk/src/index.ts') },
      { find: /^@storefront-platform\/themes$/, replacement: src('./themes/src/index.ts') },
    ],
  },
  test: {
    include: [
      'sdk/test/**/*.test.ts',
      'server/test/**/*.test.ts',
      'themes/test/**/*.test.ts',
      'examples/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'dist/**'],
    typecheck: { enabled: true, include: ['**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    // Most files spend their time waiting on processes they start (servers, the CLI, Redis, Chromium): vitest's
    // default of one worker less than the cores ran the whole suite in one worker on two cores (7 min; 4.5 with 2).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
