/**
 * The packages of the workspace and their entry points, read from the manifests: the root `package.json`'s
 * `workspaces` is the one list of packages, and each package's `exports` the list of its entries. The vitest
 * aliases, the architecture test, the API reference and the packaging check take them from here, so that a new
 * package is a line in `workspaces` (and its `paths` in tsconfig.json, which JSON cannot compute: a test holds
 * them to this list).
 *
 * An entry's sources are found by convention, the one the tsup configs follow: `.` is `src/index.ts`, and
 * `./name` is `src/name.ts` or else `src/name/index.ts`.
 *
 *   npx tsx scripts/workspace-packages.ts   print the packages and their entries as JSON (for shell scripts)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** One entry point of a package: what an app imports. */
export interface PackageEntry {
  /** The import name: `@storefront-platform/sdk/redis`. */
  name: string;
  /** Its barrel, relative to the repository root: `sdk/src/redis/index.ts`. */
  barrel: string;
  /** An entry for the packages themselves (`./internal`), which the API reference leaves out. */
  internal: boolean;
}

/** A package of the workspace. */
export interface WorkspacePackage {
  /** Its folder, relative to the repository root, as `workspaces` gives it: `sdk`. */
  dir: string;
  /** Its name: `@storefront-platform/sdk`. */
  name: string;
  /** Its entry points, in the order of its `exports`. */
  entries: PackageEntry[];
}

const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

/** The barrel of `subpath` (`.`, `./redis`) in the package at `dir`, by the convention above. */
function barrelOf(dir: string, subpath: string): string {
  const name = subpath === '.' ? 'index' : subpath.slice(2);
  const candidates = [`${dir}/src/${name}.ts`, `${dir}/src/${name}/index.ts`];
  const found = candidates.find((path) => existsSync(join(ROOT, path)));
  if (!found) throw new Error(`${dir}/package.json exports "${subpath}": expected ${candidates.join(' or ')}`);
  return found;
}

/** The packages of the workspace, in the order of `workspaces`. */
export function workspacePackages(): WorkspacePackage[] {
  return (readJson('package.json').workspaces as string[]).map((dir) => {
    const { name, exports } = readJson(`${dir}/package.json`) as { name: string; exports: Record<string, unknown> };
    const entries = Object.keys(exports)
      // `./package.json` is the manifest, no code.
      .filter((subpath) => !subpath.endsWith('.json'))
      .map((subpath) => ({
        name: subpath === '.' ? name : `${name}/${subpath.slice(2)}`,
        barrel: barrelOf(dir, subpath),
        internal: subpath === './internal',
      }));
    return { dir, name, entries };
  });
}

/** Every entry point of every package. */
export function packageEntries(): PackageEntry[] {
  return workspacePackages().flatMap((pkg) => pkg.entries);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(workspacePackages(), null, 2));
}
