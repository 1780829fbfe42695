/**
 * Issue 28: the workspace's `workspaces` is the one list of packages, and their `exports` of entries
 * (scripts/workspace-packages.ts). What cannot be computed from them is held to them here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { workspacePackages } from '../../scripts/workspace-packages.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const packages = workspacePackages();

describe('the packages of the workspace', () => {
  it('are type-checked and mapped to their sources in tsconfig.json, every entry and nothing else (JSON cannot compute paths)', () => {
    const { config } = ts.readConfigFile(`${root}tsconfig.json`, ts.sys.readFile);
    expect(config.include).toEqual(expect.arrayContaining(packages.map((pkg) => pkg.dir)));
    const expected = packages.flatMap((pkg) => pkg.entries.map((entry) => [entry.name, [`./${entry.barrel}`]]));
    expect(config.compilerOptions.paths).toEqual(Object.fromEntries(expected));
  });

  it.each(packages)('$dir builds each entry from the barrel the convention names', ({ dir, entries }) => {
    const tsup = readFileSync(`${root}${dir}/tsup.config.ts`, 'utf8');
    for (const { barrel } of entries) expect(tsup).toContain(`'${barrel.slice(dir.length + 1)}'`);
  });
});
