/**
 * A publish cut short, by Ctrl-C (SIGINT to the bin) and by the server dying (SIGKILL of its process): the bin
 * says what production got and what it did not, exits with 4, leaves its journal, and the next publish resumes
 * from it and finishes, production then holding exactly the development theme's files, but a file the merchant
 * edited in between (after the cut publish had created it), which production keeps.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { clientCredentials, createClient } from '@storefront-platform/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { md5 } from '../src/theme/digest.js';
import { BIN_TESTS, runCli, startCli } from './helpers/cli.js';
import { DEMO, useThemesServer } from './helpers/server.js';
import { type ServerProcess, startServerProcess } from './helpers/server-process.js';
import { addTemplates, filesOf } from './helpers/theme-files.js';

const themes = useThemesServer();
/**
 * The changes each publish makes: enough that a cut after the tenth write lands midway (a few more are under way
 * then), few enough that making them and publishing them twice stays short (150 took half a minute).
 */
const CHANGES = 50;
const JOURNAL = '.storefront-publish.jsonl';

/** Resolves once `count()` reaches `n`. */
async function until(count: () => number, n: number): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (count() < n) {
    if (performance.now() > deadline) throw new Error(`saw ${count()} writes, waited for ${n}`);
    await sleep(1);
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The journal's header and steps. */
async function journalOf(dir: string) {
  const [header, ...steps] = (await readFile(join(dir, JOURNAL), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  return { header, steps };
}

describe('a publish cut short', BIN_TESTS, () => {
  it('by Ctrl-C: lets the requests under way finish, lists what was published and what was not, exits 4; the next run finishes', {
    timeout: 120_000,
  }, async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    const added = await addTemplates((await t.theme(true)).theme, 'pages/p', CHANGES);
    const productionFiles = filesOf((await t.theme()).theme).size;
    const from = t.requests.length;
    const publish = startCli(['publish', dir, '--yes'], { config });
    await until(() => t.writesSince(from).length, 10);
    publish.child.kill('SIGINT');
    expect(await publish.exited).toBe(4);

    const stdout = publish.stdout();
    const [, made, total] =
      /was cut short \(interrupted \(SIGINT\)\): production holds (\d+) of the (\d+) changes/.exec(stdout) ?? [];
    expect(Number(total)).toBe(CHANGES);
    // After the plan's list of every change, the report's two lists.
    const report = stdout.slice(stdout.indexOf('was cut short'));
    const published = [...report.matchAll(/^ {2}created\s+(\S+)$/gm)].map((m) => m[1]);
    const notPublished = [...report.matchAll(/^ {2}to create\s+(\S+) \(not sent\)$/gm)].map((m) => m[1]);
    expect(published.length).toBe(Number(made));
    expect(published.length).toBeGreaterThanOrEqual(10);
    // Ctrl-C let the requests under way finish: every change is either made or never sent.
    expect([...published, ...notPublished].sort()).toEqual(added);
    expect(stdout).toContain(`Published (${made}):`);
    expect(stdout).toContain(`Not published (${notPublished.length}):`);
    expect(stdout).toContain(
      `Run storefront-themes publish again to finish: it resumes from the journal ${join(dir, JOURNAL)}`,
    );
    expect(publish.stderr()).toContain('Stopping (SIGINT): the requests under way finish');
    expect(publish.stderr()).toContain(
      `storefront-themes publish: publishing was cut short (interrupted (SIGINT)): ${made} of ${CHANGES} changes published, ${notPublished.length} not; run publish again to finish\n`,
    );
    // Production holds exactly what the report says.
    const production = filesOf((await t.theme()).theme);
    for (const path of published) expect(production.has(path!)).toBe(true);
    for (const path of notPublished) expect(production.has(path!)).toBe(false);
    const journal = await journalOf(dir);
    expect(journal.header).toMatchObject({
      journal: 'storefront-themes publish',
      version: 1,
      production: { files: productionFiles },
    });
    expect(journal.header.changes).toHaveLength(CHANGES);
    expect(journal.steps.filter((s: { step: string }) => s.step === 'created')).toHaveLength(published.length);

    // The merchant edits a file the cut publish created: production's own change since, not a conflict.
    const edited = published[0]!;
    const merchant = '<p>edited by the merchant after the cut</p>\n';
    const template = (await t.theme()).theme.embedded('templates').find((x) => x.properties.file_name === edited)!;
    await template.follow('svc:update_template', { body: merchant });

    const again = await runCli(['publish', dir, '--yes'], { config });
    expect(again.stdout).not.toContain('conflict');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      `Resuming the publish started ${journal.header.started_on}, which was cut short: ${made} of its ${CHANGES} changes are in production`,
    );
    expect(again.stdout).toContain(
      `${notPublished.length} created (the publish started ${journal.header.started_on} is complete)`,
    );
    expect(await exists(join(dir, JOURNAL))).toBe(false);
    const [now, development] = [filesOf((await t.theme()).theme), filesOf((await t.theme(true)).theme)];
    expect(now.get(edited)).toBe(md5(merchant));
    expect(new Map([...now].filter(([path]) => path !== edited))).toEqual(
      new Map([...development].filter(([path]) => path !== edited)),
    );
  });
});

describe('a publish whose server dies', BIN_TESTS, () => {
  let server: ServerProcess | undefined;
  afterAll(() => server?.stop());

  it('lists in its JSON what was published and what was not, exits 4; the next run after a restart finishes', {
    timeout: 120_000,
  }, async () => {
    const t = themes();
    const work = await t.tempDir();
    server = await startServerProcess(work);
    const config = await t.tempDir();
    expect((await runCli(['login', '--client-credentials'], { config, env: server.env })).code).toBe(0);
    const dir = join(work, 'theme');
    expect((await runCli(['dev', '--no-serve', dir, '--shop', 'northwind'], { config })).code).toBe(0);
    const sdk = createClient({
      baseUrl: `${server.origin}/v1`,
      auth: clientCredentials({ authUrl: server.origin, ...DEMO, scope: 'admin' }),
      retry: false,
    });
    const shop = await (await sdk.root())
      .embedded('shops')
      .find((s) => s.properties.subdomain === 'northwind')!
      .follow('self');
    const development = () => shop.follow('svc:theme').then((p) => p.follow('svc:dev_theme'));
    const added = await addTemplates(await development(), 'pages/p', CHANGES);

    const from = server.writes().length;
    const publish = startCli(['publish', dir, '--yes', '--json'], { config });
    await until(() => server!.writes().length - from, 10);
    await server.kill();
    expect(await publish.exited).toBe(4);
    const report = JSON.parse(publish.stdout());
    expect(report).toMatchObject({
      ok: false,
      interrupted: true,
      error: { exitCode: 4 },
      journal: join(dir, JOURNAL),
      theme: { production: true },
    });
    expect(report.error.message).toMatch(
      /^publishing was cut short \(cannot reach the server at http:\/\/127\.0\.0\.1:\d+ \(.+\): is it running\?\): \d+ of \d+ changes published, \d+ not; run publish again to finish$/,
    );
    expect(report.error.message).toContain(` of ${CHANGES} changes published, `);
    const published: string[] = report.published.map((f: { path: string }) => f.path);
    const notPublished: string[] = report.notPublished.map((f: { path: string }) => f.path);
    // The server logs a write as its response leaves: some of the ten may not have reached the bin before the kill.
    expect(published.length).toBeGreaterThan(0);
    expect(notPublished.length).toBeGreaterThan(0);
    expect([...published, ...notPublished].sort()).toEqual(added);
    for (const file of report.notPublished) expect(file).toMatchObject({ action: 'created', why: expect.any(String) });
    expect(publish.stderr()).toBe(`storefront-themes publish: ${report.error.message}\n`);

    await server.restart();
    // What the killed server acknowledged is there; a request cut mid-way may or may not be.
    const production = filesOf(await shop.follow('svc:theme'));
    for (const path of published) expect(production.has(path)).toBe(true);
    for (const file of report.notPublished) if (!file.sent) expect(production.has(file.path)).toBe(false);

    const again = await runCli(['publish', dir, '--yes', '--json'], { config });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, resumed: report.started_on });
    expect(await exists(join(dir, JOURNAL))).toBe(false);
    expect(filesOf(await shop.follow('svc:theme'))).toEqual(filesOf(await development()));
  });
});
