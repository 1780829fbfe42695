/**
 * A push cut short says what it sent: Ctrl-C (SIGINT to the bin) lets the requests under way finish, records them,
 * and names how many went, with status for the rest; the next push sends only the rest. It reports the conflicts
 * and failures already known as a push that ends does, and with `--json` prints its document (one object per
 * environment with environments). And why a request got no answer, in words (`connection refused`), found however
 * deep undici buried the system's code.
 */
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { networkReason } from '../src/network-reason.js';
import { BIN_TESTS, startCli } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();
/** Enough files that a cut after the fifth write lands midway. */
const FILES = 40;

/** The bin's push with `args`, sent SIGINT once the server saw its fifth write; its exit code and output. */
async function pushCut(args: string[], config: string) {
  const t = themes();
  const from = t.requests.length;
  const push = startCli(['push', ...args], { config });
  const deadline = performance.now() + 30_000;
  while (t.writesSince(from).length < 5 && performance.now() < deadline) await sleep(1);
  push.child.kill('SIGINT');
  return { code: await push.exited, stdout: push.stdout(), stderr: push.stderr() };
}

/**
 * A checked-out development theme with `FILES` new templates named `prefix-N.html`, a template changed on both
 * sides (a conflict known before any request) and one holding conflict markers (the first sent: a failure).
 */
async function folderWithTrouble(prefix: string) {
  const t = themes();
  const { config, dir } = await t.checkedOut('dev');
  for (let n = 0; n < FILES; n++) await writeFile(join(dir, `${prefix}-${n}.html`), `<p>${n}</p>\n`);
  await writeFile(join(dir, `${prefix}-0-markers.html`), '<<<<<<< ours\n<p>a</p>\n=======\n<p>b</p>\n>>>>>>> theirs\n');
  await writeFile(join(dir, 'page.html'), `<p>ours, ${prefix}</p>\n`);
  const { theme } = await t.theme(true);
  const page = theme.embedded('templates').find((x) => x.properties.file_name === 'page.html')!;
  await (await page.follow('self')).follow('svc:update_template', { body: `<p>theirs, ${prefix}</p>\n` });
  return { config, dir };
}

const CONFLICT = { path: 'page.html', kind: 'template', action: 'conflict', message: 'changed on the server too' };
const MARKERS = (prefix: string) => ({
  path: `${prefix}-0-markers.html`,
  kind: 'template',
  action: 'failed',
  message: 'holds conflict markers (<<<<<<< … >>>>>>>): resolve them first',
});

/** The one line a push cut short prints with --json (exit 4), parsed. */
function cutDocument(push: { code: number | null; stdout: string; stderr: string }) {
  expect(push.code, push.stderr).toBe(4);
  const lines = push.stdout.trimEnd().split('\n');
  expect(lines, push.stdout).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

describe('a push cut short', BIN_TESTS, () => {
  it('by Ctrl-C: says how many files went and that status shows the rest; the next push sends only those', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    for (let n = 0; n < FILES; n++) await writeFile(join(dir, `cut-${n}.html`), `<p>${n}</p>\n`);
    const push = await pushCut([dir], config);
    expect(push.code).toBe(4);
    const [, sent] =
      /^storefront-themes push: pushing was cut short \(interrupted \(SIGINT\)\): (\d+) files? sent \(recorded in the folder's manifest\); status shows the rest, push again sends it$/m.exec(
        push.stderr,
      ) ?? [];
    expect(Number(sent), push.stderr).toBeGreaterThan(0);
    expect(Number(sent)).toBeLessThan(FILES);
    const status = await t.cli(['status', dir], { config });
    expect(status.stdout).toContain(`${FILES - Number(sent)} changes: ${FILES - Number(sent)} to push`);
    const again = await t.cli(['push', dir], { config });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`: ${FILES - Number(sent)} created\\n$`));
  });

  it('reports the conflicts and failures known before the cut, with the conflict hint', async () => {
    const { config, dir } = await folderWithTrouble('known');
    const push = await pushCut([dir], config);
    expect(push.code, push.stderr).toBe(4);
    expect(push.stdout).toMatch(/^ {2}conflict +page\.html \(changed on the server too\)$/m);
    expect(push.stdout).toMatch(/^ {2}failed +known-0-markers\.html \(holds conflict markers/m);
    expect(push.stdout).toMatch(/^ {2}created +known-0\.html$/m);
    expect(push.stdout).toMatch(
      /^Pushing to "[^"]+" of Northwind Outfitters was cut short \(interrupted \(SIGINT\)\): \d+ created, 1 conflict, 1 failed$/m,
    );
    expect(push.stdout).toMatch(/^Conflicts were left alone: run diff to see them/m);
    expect(push.stderr).toMatch(
      /^storefront-themes push: pushing was cut short \(interrupted \(SIGINT\)\): \d+ files sent/m,
    );
  });

  it('with --json: the document of a push, not ok, interrupted, with every file known so far', async () => {
    const { config, dir } = await folderWithTrouble('json');
    const document = cutDocument(await pushCut([dir, '--json'], config));
    expect(document).toMatchObject({
      ok: false,
      interrupted: true,
      error: {
        message: expect.stringMatching(/^pushing was cut short \(interrupted \(SIGINT\)\): \d+ files sent/),
        exitCode: 4,
      },
      dryRun: false,
      dir,
      shop: { subdomain: 'northwind' },
      theme: { production: false },
      links: [],
    });
    expect(document.files).toContainEqual(CONFLICT);
    expect(document.files).toContainEqual(MARKERS('json'));
    const created = document.files.filter((file: { action: string }) => file.action === 'created');
    expect(created.length).toBeGreaterThan(0);
    expect(created.length).toBeLessThan(FILES);
  });

  it('with --json and an environment: its one line, the push document under the environment', async () => {
    const { config, dir } = await folderWithTrouble('env');
    await writeFile(
      join(dir, 'storefront-themes.toml'),
      'default = "dev"\n\n[environments.dev]\nshop = "northwind"\ntheme = "development"\n',
    );
    const document = cutDocument(await pushCut([dir, '--json'], config));
    expect(document).toMatchObject({
      environment: 'dev',
      exitCode: 4,
      ok: false,
      interrupted: true,
      error: { exitCode: 4 },
      theme: { production: false },
    });
    expect(document.files).toContainEqual(CONFLICT);
    expect(document.files).toContainEqual(MARKERS('env'));
  });
});

describe('networkReason', () => {
  it('says a refused connection as such, from the cause Node buries it in', async () => {
    const closed = createNetServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => closed.once('listening', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(networkReason(error)).toBe('connection refused');
    const aggregate = new TypeError('fetch failed', {
      cause: new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]),
    });
    expect(networkReason(aggregate)).toBe('connection refused');
    expect(networkReason(new TypeError('fetch failed', { cause: new Error('other side closed') }))).toBe(
      'other side closed',
    );
  });
});
