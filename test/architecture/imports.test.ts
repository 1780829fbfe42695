/**
 * Issue 16: no import circles, no reach across packages. A circle hides which module depends on which (and makes
 * evaluation order matter); a relative path into another package breaks once the packages are installed apart.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { boundaryViolations, PACKAGES } from './boundaries.js';
import { findCycles } from './cycles.js';
import { importsOf, moduleGraph, sourceFiles, specifiersOf } from './import-graph.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const files = PACKAGES.flatMap((dir) => sourceFiles(root, dir));
const edges = files.flatMap((file) => importsOf(root, file));

describe('findCycles', () => {
  it('names each cycle of a graph from its smallest module, and nothing in an acyclic one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'd']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    expect(findCycles(graph)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['d', 'd'],
    ]);
    expect(
      findCycles(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reports, for each import inside a tangle, the shortest cycle through it', () => {
    // Shaped like sdk/src/resource once was: entity ↔ navigator, entity ↔ shape ↔ results, navigator → results → entity.
    const graph = new Map([
      ['entity', ['navigator', 'shape']],
      ['navigator', ['entity', 'results']],
      ['results', ['entity', 'shape']],
      ['shape', ['entity', 'results']],
    ]);
    expect(findCycles(graph)).toEqual([
      ['entity', 'navigator', 'entity'],
      ['entity', 'navigator', 'results', 'entity'],
      ['entity', 'shape', 'entity'],
      ['results', 'shape', 'results'],
    ]);
  });
});

describe('boundaryViolations', () => {
  it('catches a relative path out of a package, and the server or Node built-ins in the SDK and the React bindings', () => {
    const edges = [
      {
        from: 'server/src/api/hal.ts',
        specifier: '../../../sdk/src/contract/index.js',
        target: 'sdk/src/contract/index.ts',
      },
      { from: 'server/src/api/hal.ts', specifier: '@storefront-platform/sdk/internal' },
      { from: 'server/src/api/hal.ts', specifier: 'node:crypto' },
      { from: 'sdk/src/client.ts', specifier: '../../server/src/index.js', target: 'server/src/index.ts' },
      { from: 'sdk/src/client.ts', specifier: '@storefront-platform/server/msw' },
      { from: 'sdk/src/client.ts', specifier: 'node:fs' },
      { from: 'sdk/src/client.ts', specifier: 'crypto' },
      { from: 'sdk/src/client.ts', specifier: './http/transport.js', target: 'sdk/src/http/transport.ts' },
      { from: 'sdk/src/client.ts', specifier: 'ky' },
      { from: 'themes/src/theme/push.ts', specifier: '@storefront-platform/sdk' },
      { from: 'themes/src/theme/push.ts', specifier: '@storefront-platform/sdk/internal' },
      { from: 'themes/src/theme/push.ts', specifier: '@storefront-platform/server' },
      { from: 'themes/src/theme/push.ts', specifier: 'node:fs/promises' },
      { from: 'react/src/provider.ts', specifier: '@storefront-platform/sdk' },
      { from: 'react/src/provider.ts', specifier: '@tanstack/react-query' },
      { from: 'react/src/provider.ts', specifier: '@storefront-platform/sdk/internal' },
      { from: 'react/src/provider.ts', specifier: '@storefront-platform/server/msw' },
      { from: 'react/src/provider.ts', specifier: 'node:async_hooks' },
    ];
    expect(boundaryViolations(edges)).toEqual([
      'server/src/api/hal.ts imports ../../../sdk/src/contract/index.js (a relative path out of server/src)',
      'sdk/src/client.ts imports ../../server/src/index.js (a relative path out of sdk/src)',
      'sdk/src/client.ts imports @storefront-platform/server/msw (the SDK cannot depend on the server)',
      'sdk/src/client.ts imports node:fs (the SDK runs in browsers)',
      'sdk/src/client.ts imports crypto (the SDK runs in browsers)',
      'themes/src/theme/push.ts imports @storefront-platform/sdk/internal (the theme CLI is an app of the SDK: its public entries only)',
      'themes/src/theme/push.ts imports @storefront-platform/server (the theme CLI is an app of the SDK: its public entries only)',
      'react/src/provider.ts imports @storefront-platform/sdk/internal (the React bindings are an app of the SDK: its public entries only)',
      'react/src/provider.ts imports @storefront-platform/server/msw (the React bindings are an app of the SDK: its public entries only)',
      'react/src/provider.ts imports node:async_hooks (the React bindings run in browsers)',
    ]);
  });
});

describe('specifiersOf', () => {
  it('counts type-only imports, export-from and import() types', () => {
    const source = [
      "import type { A } from './a.js';",
      "import { b, type B } from './b.js';",
      "export type { C } from './c.js';",
      "export * from './d.js';",
      "type E = import('./e.js').E;",
      "const f = await import('./f.js');",
    ].join('\n');
    expect(specifiersOf(source)).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.js', './f.js']);
  });
});

describe('imports of sdk/src and server/src', () => {
  it('reads every source file, export-from included', () => {
    const imports = (from: string) => edges.filter((edge) => edge.from === from).map((edge) => edge.target);
    expect(imports('sdk/src/index.ts')).toContain('sdk/src/resource/representations.ts');
    expect(files.length).toBeGreaterThan(100);
  });

  it('form no cycle, type-only imports included', () => {
    const cycles = findCycles(moduleGraph(files, edges)).map((cycle) => cycle.join(' → '));
    expect(cycles).toEqual([]);
  });

  it('stay inside their package, and the SDK off the server and Node built-ins', () => {
    expect(boundaryViolations(edges)).toEqual([]);
  });
});
