/**
 * A push cut short says what it sent: Ctrl-C (SIGINT to the bin) lets the requests under way finish, records them,
 * and names how many went, with status for the rest; the next push sends only the rest. And why a request got no
 * answer, in words (`connection refused`), found however deep undici buried the system's code.
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

describe('a push cut short', BIN_TESTS, () => {
  it('by Ctrl-C: says how many files went and that status shows the rest; the next push sends only those', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    for (let n = 0; n < FILES; n++) await writeFile(join(dir, `cut-${n}.html`), `<p>${n}</p>\n`);
    const from = t.requests.length;
    const push = startCli(['push', dir], { config });
    const deadline = performance.now() + 30_000;
    while (t.writesSince(from).length < 5 && performance.now() < deadline) await sleep(1);
    push.child.kill('SIGINT');
    expect(await push.exited).toBe(4);
    const [, sent] =
      /^storefront-themes push: pushing was cut short \(interrupted \(SIGINT\)\): (\d+) files? sent \(recorded in the folder's manifest\); status shows the rest, push again sends it$/m.exec(
        push.stderr(),
      ) ?? [];
    expect(Number(sent), push.stderr()).toBeGreaterThan(0);
    expect(Number(sent)).toBeLessThan(FILES);
    const status = await t.cli(['status', dir], { config });
    expect(status.stdout).toContain(`${FILES - Number(sent)} changes: ${FILES - Number(sent)} to push`);
    const again = await t.cli(['push', dir], { config });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`: ${FILES - Number(sent)} created\\n$`));
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
