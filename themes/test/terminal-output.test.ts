/**
 * What a person sees in a terminal and what a script reads from a pipe, through the real bin: colour only on a
 * terminal (or with FORCE_COLOR) and never with NO_COLOR or TERM=dumb, a progress bar on standard error for
 * transfers of ten files or more, only on a terminal and never with --json. The terminal is a pseudo-terminal of
 * util-linux `script` (without it the tests are skipped, loudly, or fail under CI).
 */
import { appendFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipWithout } from '../../test/support/requirement.js';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';
import { rendered, runInTerminal, TERMINAL } from './helpers/terminal.js';

const themes = useThemesServer();

/**
 * A pattern of what the terminal got, `⎋` standing for the escape character (which the linter would not have in
 * a regular expression's source).
 */
const shown = (source: string, flags?: string) => new RegExp(source.replaceAll('⎋', '\\x1b'), flags);
/** Any escape sequence: a colour, a cursor move, a line cleared. */
const ESCAPE = shown('⎋\\[');
/** `text` in a colour (SGR `code`), as node:util's styleText writes it. */
const coloured = (code: number, text: string) => `\u001b[${code}m${text}\u001b[39m`;
/** The environment of a pipe, as a script has it: no colour asked for either way. */
const PIPED = { NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm-256color' };

/** The templates of a pulled folder, by file name, in order. */
async function templatesIn(dir: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(dir, '.storefront-theme.json'), 'utf8'));
  return Object.entries(manifest.files as Record<string, { kind: string }>)
    .filter(([, file]) => file.kind === 'template')
    .map(([path]) => path)
    .sort();
}

/** Edits `paths` of `dir` (a comment appended). */
async function edit(dir: string, paths: string[], note: string): Promise<void> {
  for (const path of paths)
    await appendFile(join(dir, path), path.endsWith('.html') ? `<!-- ${note} -->\n` : `/* ${note} */\n`);
}

describe.skipIf(skipWithout(TERMINAL, 'The colour tests'))('colour', BIN_TESTS, () => {
  it('only in a terminal (or with FORCE_COLOR): not in a pipe, not with NO_COLOR, not with TERM=dumb, not in --json', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('pull');
    await edit(dir, ['layout.html'], 'edited');
    const line = shown(String.raw`^ {2}(⎋\[32m)?changed here {16}(⎋\[39m)? layout\.html$`, 'm');

    const terminal = await runInTerminal(['status', dir], { config });
    expect(terminal.code).toBe(0);
    const [painted] = terminal.text.match(line)!;
    expect(painted).toBe(`  ${coloured(32, 'changed here'.padEnd(28))} layout.html`);

    const piped = await t.cli(['status', dir], { config, env: PIPED });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(line);
    expect(piped.stdout).not.toMatch(ESCAPE);

    for (const env of [{ NO_COLOR: '1' }, { TERM: 'dumb' }, { NO_COLOR: '1', FORCE_COLOR: '1' }]) {
      const plain = await runInTerminal(['status', dir], { config, env });
      expect(plain.code, JSON.stringify(env)).toBe(0);
      expect(plain.text, JSON.stringify(env)).toMatch(line);
      expect(plain.screen, JSON.stringify(env)).not.toMatch(ESCAPE);
    }

    // FORCE_COLOR (a CI whose log shows colours) paints a pipe too, as Node's own output does; FORCE_COLOR=0 does not.
    const forced = await t.cli(['status', dir], { config, env: { ...PIPED, FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(painted);
    const notForced = await t.cli(['status', dir], { config, env: { ...PIPED, FORCE_COLOR: '0' } });
    expect(notForced.stdout).not.toMatch(ESCAPE);

    const json = await runInTerminal(['status', dir, '--json'], { config });
    expect(json.code).toBe(0);
    expect(json.screen).not.toMatch(ESCAPE);
    expect(JSON.parse(json.text).changes).toEqual([expect.objectContaining({ path: 'layout.html', local: 'changed' })]);
  });

  it('on standard output only when it is the terminal: redirected to a file, it is plain', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('pull');
    await edit(dir, ['page.html'], 'edited');
    const log = join(await t.tempDir(), 'status.log');
    const redirected = await runInTerminal(['status', dir], { config, stdoutTo: log });
    expect(redirected.code).toBe(0);
    const written = await readFile(log, 'utf8');
    expect(written).toMatch(/^ {2}changed here {16} page\.html$/m);
    expect(written).not.toMatch(ESCAPE);
  });
});

describe.skipIf(skipWithout(TERMINAL, 'The progress bar tests'))('progress', BIN_TESTS, () => {
  it('pull: a bar on a terminal instead of a line per file, erased before the summary', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const dir = join(await t.tempDir(), 'theme');
    const pull = await runInTerminal(['pull', dir, '--shop', 'northwind'], { config });
    expect(pull.code).toBe(0);
    const [, count] = rendered(pull.screen).match(
      /^Pulled "Northwind Classic" of Northwind Outfitters into .+: (\d+) created$/m,
    )!;
    const total = Number(count);
    expect(total).toBeGreaterThanOrEqual(10);
    // Drawn in place (back to the first column), full at the end: every file done.
    expect(pull.screen).toMatch(shown(String.raw`⎋\[1GPulling \[#{24}\] ${total}/${total} \S+`));
    // Erased (cursor to the first column, line cleared) before the summary, which starts its own clean line.
    expect(pull.screen).toMatch(shown(String.raw`⎋\[1G⎋\[2KPulled "Northwind Classic"`));
    // What stays on the terminal: the summary alone, no bar, no line per file.
    expect(rendered(pull.screen)).toMatch(
      /^Pulled "Northwind Classic" of Northwind Outfitters into .+: \d+ created\n*$/,
    );
    // The folder got everything all the same.
    expect((await templatesIn(dir)).length).toBeGreaterThan(0);
  });

  it('pull: no bar in a pipe or with --json, where each file has its line or its entry', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const piped = await t.cli(['pull', join(await t.tempDir(), 'theme'), '--shop', 'northwind'], {
      config,
      env: PIPED,
    });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).not.toMatch(ESCAPE);
    const [, count] = piped.stdout.match(/: (\d+) created$/m)!;
    expect(Number(count)).toBeGreaterThanOrEqual(10);
    expect(piped.stdout.match(/^ {2}created {2}\S+$/gm)).toHaveLength(Number(count));

    const json = await runInTerminal(['pull', join(await t.tempDir(), 'theme'), '--shop', 'northwind', '--json'], {
      config,
    });
    expect(json.code).toBe(0);
    expect(json.screen).not.toContain('Pulling');
    expect(json.screen).not.toMatch(ESCAPE);
    const document = JSON.parse(json.text);
    expect(document.ok).toBe(true);
    expect(document.files).toHaveLength(Number(count));
  });

  it('push: a bar on a terminal from ten files on, a line per file below that; in a pipe, always the lines', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('pull');
    const templates = await templatesIn(dir);
    expect(templates.length).toBeGreaterThanOrEqual(12);
    const [ten, two] = [templates.slice(0, 10), templates.slice(10, 12)];

    await edit(dir, ten, 'ten at once');
    const many = await runInTerminal(['push', dir], { config });
    expect(many.code).toBe(0);
    expect(many.screen).toMatch(shown(String.raw`⎋\[1GPushing \[#{24}\] 10/10 \S+`));
    expect(rendered(many.screen)).toBe('Pushed to "Northwind Classic" of Northwind Outfitters: 10 updated\n');

    await edit(dir, two, 'two');
    const few = await runInTerminal(['push', dir], { config });
    expect(few.code).toBe(0);
    expect(few.screen).not.toContain('Pushing');
    for (const path of two) expect(few.text).toContain(`  ${coloured(36, 'updated ')} ${path}\n`);
    expect(few.text).toMatch(/: 2 updated$/m);

    await edit(dir, ten, 'ten again');
    const piped = await t.cli(['push', dir], { config, env: PIPED });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).not.toMatch(ESCAPE);
    expect(piped.stdout.match(/^ {2}updated {2}\S+$/gm)?.sort()).toEqual(
      ten.map((path) => `  updated  ${path}`).sort(),
    );

    // And with --json on a terminal: the document alone, no bar.
    await edit(dir, ten, 'ten in json');
    const json = await runInTerminal(['push', dir, '--json'], { config });
    expect(json.code).toBe(0);
    expect(json.screen).not.toContain('Pushing');
    expect(json.screen).not.toMatch(ESCAPE);
    expect(JSON.parse(json.text).files).toHaveLength(10);
  });

  it('with standard output redirected to a file: the bar stays on the terminal, the file gets no escape sequence', async () => {
    const t = themes();
    const config = await t.loggedIn();
    const dir = join(await t.tempDir(), 'theme');
    const log = join(await t.tempDir(), 'pull.log');
    const pull = await runInTerminal(['pull', dir, '--shop', 'northwind'], { config, stdoutTo: log });
    expect(pull.code).toBe(0);
    expect(pull.screen).toMatch(/Pulling \[#{24}\] (\d+)\/\1 /);
    const written = await readFile(log, 'utf8');
    expect(written).not.toMatch(ESCAPE);
    expect(written).toMatch(/^Pulled "Northwind Classic" of Northwind Outfitters into .+: \d+ created\n$/m);
    expect(await readdir(dir)).toContain('layout.html');
  });
});
