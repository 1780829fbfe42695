import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { packageEntries } from './scripts/workspace-packages.js';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** A pattern of `name` alone: an alias's plain string would also take its subpaths (`sdk` those of `sdk/redis`). */
const exactly = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/**
 * Tests of the operating system and the database rather than of Node: kills at random moments, full and failing
 * disks, the bin's processes, PostgreSQL, a fleet of processes. They run on the built bin (`dist/cli.js`, built by
 * their global setup when the sources changed) and once in CI, on Node 20.
 */
const SYSTEM = [
  'server/test/crash-*.test.ts',
  'server/test/bad-disks.test.ts',
  'server/test/store-full-disk.test.ts',
  'server/test/cli*.test.ts',
  'server/test/postgres/**/*.test.ts',
  'server/test/store/postgres-contract.test.ts',
  'test/contract/contract-postgres.test.ts',
  'test/fleet/**/*.test.ts',
];

/** Builds the bins the tests start as processes, when their sources changed. */
const BUILD_BINS = 'server/test/helpers/build-bin.ts';

/**
 * The suites that run on MSW's handlers: CI runs them on Node 22 with msw 3 (examples/app-tests/run-msw3.sh, whose
 * config lists the same folders), on Node 20 and 24 with the repository's msw 2.
 */
const MOCKS = ['server/test/msw/**/*.test.ts', 'test/contract/contract.test.ts', 'examples/app-tests/**/*.test.ts'];

/**
 * What else depends on Node's version: the SDK, the server's core, the React package and the clients against the
 * server. CI runs these (`node`, `node-isolated`) and the mocks again on every newer Node an app may run.
 */
const NODE = [
  'sdk/test/**/*.test.ts',
  'server/test/**/*.test.ts',
  'react/test/**/*.test.{ts,tsx}',
  'test/contract/**/*.test.ts',
  'test/clients/**/*.test.ts',
];

/**
 * The files of `NODE` that replace a module (`vi.mock`), which needs the module loaded afresh for the file: they
 * run isolated, the rest of `NODE` in workers that keep the modules they loaded between files (a third less time
 * on two cores: each file no longer evaluates the server core and the SDK again).
 */
const MOCKED_MODULES = [
  'server/test/shell-gzip.test.ts',
  'server/test/oauth/password-checks.test.ts',
  'server/test/drift/drift-bug.test.ts',
];

/**
 * The projects whose files take longest (processes, crash rounds, the CLI), started first: the many short files of
 * the others then fill both workers to the end, where by name or size (a fresh clone has no durations cached) a
 * crash suite of a minute could start last and run alone.
 */
const FIRST = ['system', 'tools'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = FIRST.indexOf(spec.project.name);
      return at === -1 ? FIRST.length : at;
    };
    // Stable: within a project, vitest's own order (the longest first, once it has durations).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: {
    // Tests import the package by its public name, resolved to the sources (no build needed).
    alias: packageEntries().map((entry) => ({ find: exactly(entry.name), replacement: src(entry.barrel) })),
  },
  test: {
    exclude: ['**/node_modules/**', 'dist/**'],
    // Most files spend their time waiting on processes they start (servers, the CLI, Redis, Chromium): vitest's
    // default of one worker less than the cores ran the whole suite in one worker on two cores (7 min; 4.5 with 2).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Every file is in exactly one project; `vitest run` runs them all. The type tests (`*.test-d.ts`: the SDK's
    // and React's types, asserted with expectTypeOf) are in none: `npm run typecheck`, whose tsc checks them with
    // the rest, fails on a wrong one, and vitest's typecheck would run tsc over them a second time.
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: NODE,
          exclude: ['**/node_modules/**', 'dist/**', ...SYSTEM, ...MOCKS, ...MOCKED_MODULES],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'node-isolated', include: MOCKED_MODULES } },
      { extends: true, test: { name: 'mocks', include: MOCKS } },
      {
        extends: true,
        test: { name: 'system', include: SYSTEM, globalSetup: [BUILD_BINS] },
      },
      {
        extends: true,
        // The themes CLI, the examples, the docs, the browser tests, the architecture and the quick start.
        test: {
          name: 'tools',
          // The themes tests run the built bins.
          globalSetup: [BUILD_BINS],
          include: ['themes/test/**/*.test.ts', 'examples/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'dist/**', ...SYSTEM, ...MOCKS, ...NODE],
        },
      },
    ],
  },
});
