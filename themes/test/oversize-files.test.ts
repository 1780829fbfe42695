/**
 * A file over the API's size limit (64 KiB a template, 1 MiB an asset) is told by its size, never read: `status`
 * shows it as an error line, `check` reports it, `push` refuses before sending anything. A sparse file of 3 GiB
 * (past the 2 GiB Node reads at once) takes no disk, so the test is cheap; read whole, it would fail with Node's
 * own "File size … is greater than 2 GiB" or take gigabytes of memory.
 */
import { appendFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN_TESTS, startCli } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();
const GIB = 1024 ** 3;

const running: ReturnType<typeof startCli>[] = [];
afterEach(async () => {
  for (const watch of running.splice(0)) {
    watch.child.kill('SIGINT');
    await watch.exited;
  }
});

/** A pulled folder with a new 3 GiB asset, a template one byte over 64 KiB, a tracked asset grown to 2 MiB. */
async function folderWithHugeFiles() {
  const t = themes();
  const { config, dir } = await t.checkedOut('pull');
  await writeFile(join(dir, 'assets/huge.png'), '');
  await truncate(join(dir, 'assets/huge.png'), 3 * GIB);
  await writeFile(join(dir, 'big.html'), 'x'.repeat(64 * 1024 + 1));
  await truncate(join(dir, 'assets/images/logo.png'), 2 * 1024 * 1024);
  await appendFile(join(dir, 'layout.html'), '<!-- edited -->\n');
  return { t, config, dir };
}

describe('files over the API limit', BIN_TESTS, () => {
  it('status lists each as an error line, and takes a tracked one for neither changed nor deleted', async () => {
    const { t, config, dir } = await folderWithHugeFiles();
    const run = await t.cli(['status', dir], { config });
    expect(run.stderr).not.toMatch(/greater than 2 GiB/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^ {2}too large {20}assets\/huge\.png \(error: 3221225472 bytes, over the API's limit of 1048576: not read\)$/m,
    );
    expect(run.stdout).toMatch(/^ {2}too large {20}big\.html \(error: 65537 bytes, over the API's limit of 65536/m);
    expect(run.stdout).toMatch(/^ {2}too large {20}assets\/images\/logo\.png \(error: 2097152 bytes/m);
    expect(run.stdout).not.toMatch(/deleted here\s+assets\/images\/logo\.png/);
    expect(run.stdout).toMatch(/changed here\s+layout\.html/);

    const json = await t.cli(['status', dir, '--json'], { config });
    expect(JSON.parse(json.stdout).oversize).toEqual([
      { path: 'assets/huge.png', size: 3 * GIB, limit: 1024 * 1024 },
      { path: 'assets/images/logo.png', size: 2 * 1024 * 1024, limit: 1024 * 1024 },
      { path: 'big.html', size: 64 * 1024 + 1, limit: 64 * 1024 },
    ]);
  });

  it('check reports each by its size', async () => {
    const { t, config, dir } = await folderWithHugeFiles();
    const run = await t.cli(['check', dir], { config });
    expect(run.code).not.toBe(0);
    const said = run.stdout + run.stderr;
    expect(said).not.toMatch(/greater than 2 GiB/);
    expect(said).toMatch(/assets\/huge\.png.*3221225472 bytes/);
    expect(said).toMatch(/big\.html.*65537 bytes/);
    expect(said).toMatch(/assets\/images\/logo\.png.*2097152 bytes/);
  });

  it('push refuses before sending anything, naming each', async () => {
    const { t, config, dir } = await folderWithHugeFiles();
    const from = t.requests.length;
    const run = await t.cli(['push', dir], { config });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Nothing pushed: over the API's size limit: /);
    expect(run.stderr).toMatch(/assets\/huge\.png \(3221225472 bytes, at most 1048576\)/);
    expect(run.stderr).toMatch(/big\.html \(65537 bytes, at most 65536\)/);
    expect(t.writesSince(from)).toEqual([]);
  });

  it('watch ignores one saved, saying why, and sends the next file saved', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    const watch = startCli(['watch', dir], { config });
    running.push(watch);
    await watch.waitFor(/^Watching /m);
    const from = t.requests.length;
    await writeFile(join(dir, 'assets/huge.png'), '');
    await truncate(join(dir, 'assets/huge.png'), 3 * GIB);
    await watch.waitFor(/ignored {2}assets\/huge\.png: 3221225472 bytes, over the API's limit of 1048576 bytes/);
    await appendFile(join(dir, 'layout.html'), '<!-- saved -->\n');
    await watch.waitFor(/pushed\s+layout\.html/);
    expect(t.writesSince(from)).toEqual([expect.stringMatching(/^PUT \/v1\/themes\/\d+\/templates\/\d+ 200 /)]);
  });
});
