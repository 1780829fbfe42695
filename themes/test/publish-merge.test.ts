/**
 * A publish that merges, through the real bin against a real server: the merchant edits production (through the
 * API, as the shop's admin does) while the development theme is worked on, and `publish` keeps those edits; what
 * both sides changed in the same lines stops it with a list, unless `--ours` or `--theirs`; `--dry-run` writes
 * nothing; deletions, binary assets and renames; a publish cut short and resumed. The tests run in order on one
 * development theme, made by the first from one folder (which keeps the base), each leaving both themes settled.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Template, Theme } from '@storefront-platform/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN_TESTS, startCli } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';
import { addTemplates, filesOf } from './helpers/theme-files.js';

const themes = useThemesServer();

let config: string;
let dir: string;
/** Templates of the demo theme with more than one line, but layout.html, in a stable order. */
let names: string[];

const theme = async (development: boolean): Promise<Theme> => (await themes().theme(development)).theme;
const templateOf = async (development: boolean, name: string): Promise<Template> =>
  (await theme(development)).embedded('templates').find((x) => x.properties.file_name === name)!;
const bodyOf = async (development: boolean, name: string) => (await templateOf(development, name))?.properties.body;
async function edit(development: boolean, name: string, change: (body: string) => string) {
  const template = await templateOf(development, name);
  await template.follow('svc:update_template', { body: change(template.properties.body) });
}
/** Changes the first line, keeping what it held (so that the template still passes check). */
const firstLine = (mark: string) => (body: string) => `${mark}${body}`;
const svg = (text: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><title>${text}</title></svg>`).toString('base64');
async function upload(development: boolean, file_name: string, text: string) {
  await (await theme(development)).follow('svc:create_theme_asset', { file_name, data: svg(text) });
}

async function publish(...args: string[]) {
  const t = themes();
  const from = t.requests.length;
  // The deletions below leave references the check would stop on: check is not what these tests are about.
  const run = await t.cli(['publish', dir, '--no-check', ...args], { config });
  return { ...run, writes: t.writesSince(from), json: () => JSON.parse(run.stdout) };
}

describe('publish merges production changes since the development theme was made', BIN_TESTS, () => {
  beforeAll(async () => {
    ({ config, dir } = await themes().checkedOut('dev'));
    names = (await theme(false))
      .embedded('templates')
      .filter((x) => x.properties.file_name !== 'layout.html' && x.properties.body.trim().includes('\n'))
      .map((x) => x.properties.file_name)
      .sort();
    expect(names.length).toBeGreaterThanOrEqual(12);
  });

  it('keeps all 50 of the merchant edits made to production meanwhile, merging those in files edited on both sides', async () => {
    const merchant: { name: string; mark: string }[] = [];
    for (let n = 0; n < 50; n++) {
      const mark = `<!-- merchant edit ${n} -->`;
      // Half on existing templates (the first four edited in the development theme too), half new templates.
      if (n < 6) {
        await edit(false, names[n]!, (body) => `${body}${mark}\n`);
        merchant.push({ name: names[n]!, mark });
      } else {
        const name = `merchant/m${n}.html`;
        await (await theme(false)).follow('svc:create_template', { file_name: name, body: `<p>${mark}</p>\n` });
        merchant.push({ name, mark });
      }
    }
    for (const name of [...names.slice(0, 4), names[10]!]) await edit(true, name, (body) => `<!-- dev -->\n${body}`);

    const published = await publish('--yes', '--json');
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    const files = published.json().files as { path: string; action: string }[];
    expect(files.map((f) => [f.path, f.action]).sort()).toEqual(
      [...names.slice(0, 4), names[10]!].map((name) => [name, 'updated']).sort(),
    );

    const production = await theme(false);
    const bodies = new Map(production.embedded('templates').map((x) => [x.properties.file_name, x.properties.body]));
    const kept = merchant.filter(({ name, mark }) => bodies.get(name)?.includes(mark));
    expect(kept.length).toBe(50);
    for (const name of [...names.slice(0, 4), names[10]!]) expect(bodies.get(name)).toMatch(/^<!-- dev -->\n/);
    const again = await publish('--yes');
    expect(again.stdout).toMatch(/^Nothing to publish: /m);
    expect(again.writes).toEqual([]);
  });

  it('stops on the same lines changed on both sides, listing both, and writes nothing; --dry-run lists the same', async () => {
    const [clash, other] = [names[5]!, names[6]!];
    await edit(true, clash, firstLine('<h1>development</h1>'));
    await edit(false, clash, firstLine('<h1>production</h1>'));
    await edit(true, other, (body) => `${body}<!-- dev only -->\n`);
    const before = filesOf(await theme(false));

    const stopped = await publish('--yes');
    expect(stopped.code).toBe(3);
    expect(stopped.writes).toEqual([]);
    expect(stopped.stdout).toContain(
      `conflict ${clash} (development theme: updated, production: updated: changed on both sides in the same lines (1 regions))`,
    );
    expect(stopped.stdout).toMatch(
      /development theme:\n {6}<h1>development<\/h1>.*\n {4}production:\n {6}<h1>production<\/h1>/,
    );
    expect(stopped.stdout).toContain('--ours');
    expect(stopped.stderr).toMatch(/^storefront-themes publish: 1 file changed on both sides: nothing was published; /);

    const dry = await publish('--dry-run', '--json');
    expect(dry.code).toBe(3);
    expect(dry.writes).toEqual([]);
    expect(dry.json()).toMatchObject({
      ok: false,
      dryRun: true,
      files: [{ path: other, action: 'updated' }],
      conflicts: [
        {
          path: clash,
          development: 'updated',
          production: 'updated',
          regions: [
            {
              development: expect.stringMatching(/^<h1>development<\/h1>/),
              production: expect.stringMatching(/^<h1>production<\/h1>/),
            },
          ],
        },
      ],
    });
    expect(filesOf(await theme(false))).toEqual(before);
  });

  it('--theirs keeps production’s side of a conflict, --ours takes the development theme’s, keeping production’s other lines', async () => {
    const [clash, other] = [names[5]!, names[6]!];
    const theirs = await publish('--yes', '--theirs');
    expect(theirs.code).toBe(0);
    expect(theirs.stdout).toContain('1 conflict settled by --theirs');
    expect(await bodyOf(false, clash)).toMatch(/^<h1>production<\/h1>/);
    expect(await bodyOf(false, other)).toMatch(/<!-- dev only -->\n$/);

    const next = names[7]!;
    await edit(true, next, firstLine('<h1>ours</h1>'));
    await edit(false, next, (body) => `${firstLine('<h1>theirs</h1>')(body)}<!-- merchant footer -->\n`);
    const dry = await publish('--dry-run', '--ours');
    expect(dry.code).toBe(0);
    expect(dry.writes).toEqual([]);
    expect(dry.stdout).toContain('Would publish: 1 updated (dry run: nothing changed)');
    const ours = await publish('--yes', '--ours');
    expect(ours.code).toBe(0);
    const body = await bodyOf(false, next);
    expect(body).toMatch(/^<h1>ours<\/h1>/);
    expect(body).toMatch(/<!-- merchant footer -->\n$/);
    expect((await publish('--yes')).stdout).toMatch(/^Nothing to publish: /m);
  });

  it('a deletion: on one side only it is taken, against a change on the other it is a conflict', async () => {
    const [changedThere, unchangedThere, deletedThere] = [names[8]!, names[9]!, names[11]!];
    await (await templateOf(true, changedThere)).follow('svc:delete_template');
    await edit(false, changedThere, (body) => `${body}<!-- merchant -->\n`);
    await (await templateOf(true, unchangedThere)).follow('svc:delete_template');
    await (await templateOf(false, deletedThere)).follow('svc:delete_template');

    const dry = await publish('--dry-run', '--json');
    expect(dry.code).toBe(3);
    expect(dry.json()).toMatchObject({
      files: [{ path: unchangedThere, action: 'deleted' }],
      conflicts: [
        {
          path: changedThere,
          development: 'deleted',
          production: 'updated',
          reason: 'deleted in the development theme, changed in production',
        },
      ],
    });
    const theirs = await publish('--yes', '--theirs');
    expect(theirs.code).toBe(0);
    const production = filesOf(await theme(false));
    expect(production.has(changedThere)).toBe(true);
    expect(production.has(unchangedThere)).toBe(false);
    // Deleted by the merchant, left as it was in the development theme: not brought back.
    expect(production.has(deletedThere)).toBe(false);
  });

  it('binary assets: no textual merge, a conflict when both sides replaced one, else the side that changed it wins', async () => {
    for (const [development, text] of [
      [true, 'one'],
      [false, 'one'],
    ] as const) {
      for (const name of ['both.svg', 'there.svg', 'here.svg']) await upload(development, `images/${name}`, text);
    }
    // Added on both sides alike: nothing to publish, and the base now holds them.
    expect((await publish('--yes')).stdout).toMatch(/^Nothing to publish: /m);
    await upload(true, 'images/both.svg', 'development');
    await upload(false, 'images/both.svg', 'production');
    await upload(false, 'images/there.svg', 'production');
    await upload(true, 'images/here.svg', 'development');

    const dry = await publish('--dry-run', '--json');
    expect(dry.code).toBe(3);
    expect(dry.json()).toMatchObject({
      files: [{ path: 'assets/images/here.svg', action: 'updated' }],
      conflicts: [
        {
          path: 'assets/images/both.svg',
          kind: 'asset',
          reason: 'an asset changed on both sides: its bytes cannot be merged',
        },
      ],
    });
    const ours = await publish('--yes', '--ours');
    expect(ours.code).toBe(0);
    const [production, development] = [filesOf(await theme(false)), filesOf(await theme(true))];
    expect(production.get('assets/images/both.svg')).toBe(development.get('assets/images/both.svg'));
    expect(production.get('assets/images/here.svg')).toBe(development.get('assets/images/here.svg'));
    expect(production.get('assets/images/there.svg')).not.toBe(development.get('assets/images/there.svg'));
  });

  it('a rename (deleted and added with the same digest) takes the other side’s change to the new name', async () => {
    const old = names[4]!;
    const body = (await bodyOf(true, old))!;
    await (await theme(true)).follow('svc:create_template', { file_name: 'renamed/moved.html', body });
    await (await templateOf(true, old)).follow('svc:delete_template');
    await edit(false, old, (text) => `${text}<!-- merchant after the rename -->\n`);

    const published = await publish('--yes', '--json');
    expect(published.code).toBe(0);
    const files = published.json().files as { path: string; action: string }[];
    expect(files.map((f) => `${f.action} ${f.path}`).sort()).toEqual([`created renamed/moved.html`, `deleted ${old}`]);
    const production = await theme(false);
    expect(production.embedded('templates').some((x) => x.properties.file_name === old)).toBe(false);
    expect(await bodyOf(false, 'renamed/moved.html')).toMatch(/<!-- merchant after the rename -->\n$/);
  });

  it('cut short by Ctrl-C, then run again: resumes, finishes, and keeps the merchant’s edit merged', {
    timeout: 120_000,
  }, async () => {
    const t = themes();
    // Enough that a cut after the tenth write lands midway (4 are under way at a time), as in publish-cut.test.ts.
    const added = await addTemplates(await theme(true), 'pages/p', 50);
    const merged = names[6]!;
    await edit(true, merged, (body) => `<!-- dev before the cut -->\n${body}`);
    await edit(false, merged, (body) => `${body}<!-- merchant before the cut -->\n`);
    const from = t.requests.length;
    const run = startCli(['publish', dir, '--yes', '--no-check'], { config });
    const deadline = performance.now() + 30_000;
    while (t.writesSince(from).length < 10 && performance.now() < deadline) await sleep(1);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(4);

    const again = await publish('--yes', '--json');
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('"conflicts"');
    const production = filesOf(await theme(false));
    for (const path of added) expect(production.has(path)).toBe(true);
    const body = await bodyOf(false, merged);
    expect(body).toMatch(/^<!-- dev before the cut -->\n/);
    expect(body).toMatch(/<!-- merchant before the cut -->\n$/);
    expect(again.json(), again.stderr).toMatchObject({ ok: true, resumed: expect.any(String) });
  });

  it('works from a colleague’s copy of the folder (a clone with .storefront/), signed in on its own', async () => {
    const t = themes();
    const clone = join(await t.tempDir(), 'clone');
    await cp(dir, clone, { recursive: true });
    const colleague = await t.loggedIn();
    const [mine, theirs] = [names[2]!, names[3]!];
    await edit(true, mine, (body) => `<!-- colleague -->\n${body}`);
    await edit(false, theirs, (body) => `${body}<!-- merchant, for the colleague -->\n`);
    const from = t.requests.length;
    const run = await t.cli(['publish', clone, '--yes', '--no-check', '--json'], { config: colleague });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).files).toEqual([{ path: mine, kind: 'template', action: 'updated' }]);
    expect(t.writesSince(from)).toHaveLength(1);
    expect(await bodyOf(false, mine)).toMatch(/^<!-- colleague -->\n/);
    expect(await bodyOf(false, theirs)).toMatch(/<!-- merchant, for the colleague -->\n$/);
  });
});
