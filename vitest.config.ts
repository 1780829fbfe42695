import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { packageEntries } from './scripts/workspace-packages.js';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** A pattern of `name` alone: an alias's plain string would also take its subpaths (`sdk` those of `sdk/redis`). */
const exactly = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

export default defineConfig({
  resolve: {
    // Tests import the package by its public name, resolved to the sources (no build needed).
    alias: packageEntries().map((entry) => ({ find: exactly(entry.name), replacement: src(entry.barrel) })),
  },
  test: {
    include: [
      'sdk/test/**/*.test.ts',
      'server/test/**/*.test.ts',
      'themes/test/**/*.test.ts',
      'react/test/**/*.test.{ts,tsx}',
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
