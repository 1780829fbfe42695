/**
 * `check --format sarif` through the real bin, on a theme folder inside a repository: the log validates against the
 * SARIF 2.1.0 schema (OASIS, errata 01, vendored in fixtures/), names each rule once, and places each result on
 * its file by a path relative to the repository, with its line and column.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

async function sarifValidator() {
  const schema = JSON.parse(await readFile(new URL('./fixtures/sarif-schema-2.1.0.json', import.meta.url), 'utf8'));
  // CommonJS modules: their class and function are `default` of the module.
  const ajv = new Ajv.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[];
}

describe('check --format sarif', BIN_TESTS, () => {
  it('writes a SARIF 2.1.0 log that validates, with rules, levels and places relative to the repository', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const repo = join(await t.tempDir(), 'repo');
    await mkdir(join(repo, '.git'), { recursive: true });
    const dir = join(repo, 'shop theme');
    expect((await t.cli(['pull', dir, '--shop', 'northwind'], { config })).code).toBe(0);
    const validate = await sarifValidator();

    const clean = await t.cli(['check', dir, '--format', 'sarif'], { config });
    expect(clean.code).toBe(0);
    const empty = JSON.parse(clean.stdout);
    expect(validate(empty), JSON.stringify(validate.errors)).toBe(true);
    expect(empty.runs[0].results).toEqual([]);

    await writeFile(join(dir, 'page.html'), '<section>\n  <div><p>About <em>us</p>\n</section>\n</article>\n');
    await writeFile(join(dir, 'styles/broken.css'), '.a { color: red;\n.b { color: blue }\n');
    await writeFile(join(dir, 'Page.html'), '<p>twin</p>\n');
    const run = await t.cli(['check', dir, '--format', 'sarif'], { config, cwd: repo });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    const log = JSON.parse(run.stdout);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.version).toBe('2.1.0');
    const [only] = log.runs;
    expect(only.tool.driver.name).toBe('storefront-themes');
    const ruleIds = only.tool.driver.rules.map((r: { id: string }) => r.id);
    expect(ruleIds).toEqual(expect.arrayContaining(['html', 'css', 'reference', 'name', 'size', 'layout']));
    expect(new Set(ruleIds).size).toBe(ruleIds.length);
    const results = only.results as Result[];
    for (const result of results) expect(ruleIds[result.ruleIndex]).toBe(result.ruleId);
    const at = (result: Result) => {
      const { artifactLocation, region } = result.locations[0]!.physicalLocation;
      return `${artifactLocation.uri}:${region.startLine}:${region.startColumn ?? ''}`;
    };
    expect(results.find((r) => r.ruleId === 'html' && at(r).startsWith('shop%20theme/page.html:4:'))).toMatchObject({
      level: 'error',
      message: { text: expect.stringContaining('</article>') },
    });
    expect(results.find((r) => r.ruleId === 'css')).toMatchObject({ level: 'error' });
    expect(at(results.find((r) => r.ruleId === 'css')!)).toMatch(/^shop%20theme\/styles\/broken\.css:\d+:\d+$/);
    // A case twin is a warning of the name rule.
    expect(results.find((r) => r.ruleId === 'name')).toMatchObject({ level: 'warning' });
    expect(only.originalUriBaseIds['%SRCROOT%'].uri).toMatch(/^file:\/\/.*\/repo\/$/);
  });

  it('refuses a format it does not know, and --json beside sarif', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('pull');
    const unknown = await t.cli(['check', dir, '--format', 'xml'], { config });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--format takes text or sarif, not "xml"');
    const both = await t.cli(['check', dir, '--format', 'sarif', '--json'], { config });
    expect(both.code).toBe(2);
  });
});
