/**
 * Issue 22: the packages are published under names we own and released together. What a release would get wrong
 * without a word: a package left on an older version, a dependency on another package's old version (or on the
 * unscoped `storefront-sdk`, which is someone else's), a tarball without its licence or changelog.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const workspace = JSON.parse(read('package.json')) as { workspaces: string[] };

interface Manifest {
  name: string;
  version: string;
  license: string;
  repository: { type: string; url: string; directory: string };
  homepage: string;
  bugs: { url: string };
  files: string[];
  publishConfig?: { access?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const packages = workspace.workspaces.map((dir) => ({
  dir,
  manifest: JSON.parse(read(`${dir}/package.json`)) as Manifest,
}));
const version = packages[0]!.manifest.version;

describe.each(packages)('$dir/package.json', ({ dir, manifest }) => {
  it('is named under the @storefront-platform scope, public, on the version the three share', () => {
    expect(manifest.name).toMatch(/^@storefront-platform\/[a-z-]+$/);
    expect(manifest.publishConfig?.access).toBe('public');
    expect(manifest.version).toBe(version);
  });

  it('depends on the other packages at their current version, never on an unscoped storefront-* name', () => {
    const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
    expect(Object.keys(ranges).filter((name) => /^storefront-/.test(name))).toEqual([]);
    for (const [name, range] of Object.entries(ranges).filter(([name]) => name.startsWith('@storefront-platform/'))) {
      expect(range, name).toBe(`^${version}`);
    }
  });

  it('says where it comes from, where its guide is and where to report a bug', () => {
    expect(manifest.license).toBe('MIT');
    expect(manifest.repository).toMatchObject({ type: 'git', directory: dir });
    const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(manifest.homepage.startsWith(`${repository}/`)).toBe(true);
    expect(manifest.bugs.url).toBe(`${repository}/issues`);
  });

  it('ships the licence of the repository and a changelog with an entry for its version', () => {
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'CHANGELOG.md', 'LICENSE']));
    expect(read(`${dir}/LICENSE`)).toBe(read('LICENSE'));
    const changelog = read(`${dir}/CHANGELOG.md`);
    expect(changelog.startsWith(`# ${manifest.name}\n`)).toBe(true);
    expect(changelog).toContain(`\n## ${version}\n`);
  });
});
