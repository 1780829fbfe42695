/** What a package's sources may import: the rules of docs/architecture ("through their public entries"). */
import { builtinModules } from 'node:module';
import { dirname } from 'node:path';
import { workspacePackages } from '../../scripts/workspace-packages.js';
import type { ImportEdge } from './import-graph.js';

/** Source folders of the packages whose imports are checked: every package of the workspace. */
export const PACKAGES: readonly string[] = workspacePackages().map((pkg) => `${pkg.dir}/src`);

const builtins = new Set(builtinModules);

function within(dir: string, path: string): boolean {
  return path.startsWith(`${dir}/`);
}

/**
 * The imports that break a boundary, as `file imports specifier (why)`: a relative path out of the importing
 * package (the server reaches the SDK as `@storefront-platform/sdk` or `@storefront-platform/sdk/internal`, which resolve once the
 * packages are installed apart); from the theme CLI, the server or the SDK's internal entry; from the React
 * bindings, those or a Node built-in; and from the SDK, which runs in browsers, the server or a Node built-in.
 */
export function boundaryViolations(edges: readonly ImportEdge[]): string[] {
  const violations: string[] = [];
  for (const { from, specifier, target } of edges) {
    const own = PACKAGES.find((dir) => within(dir, from));
    if (own === undefined) continue;
    const report = (why: string) => violations.push(`${from} imports ${specifier} (${why})`);
    // The package's own manifest (its version) is bundled into the build, inside the package as much as its sources.
    const manifest = `${dirname(own)}/package.json`;
    if (target !== undefined && !within(own, target) && target !== manifest) report(`a relative path out of ${own}`);
    if (own === 'themes/src' && /^@storefront-platform\/(?:server|sdk\/internal)(?:\/|$)/.test(specifier)) {
      report('the theme CLI is an app of the SDK: its public entries only');
    }
    if (own === 'react/src') {
      // The bindings run in browsers and on SSR servers alike, as an app of the SDK.
      if (/^@storefront-platform\/(?:server|sdk\/internal|themes)(?:\/|$)/.test(specifier)) {
        report('the React bindings are an app of the SDK: its public entries only');
      }
      if (specifier.startsWith('node:') || builtins.has(specifier)) report('the React bindings run in browsers');
    }
    if (own !== 'sdk/src') continue;
    if (/^@storefront-platform\/server(?:\/|$)/.test(specifier)) report('the SDK cannot depend on the server');
    if (specifier.startsWith('node:') || builtins.has(specifier)) report('the SDK runs in browsers');
  }
  return violations;
}
