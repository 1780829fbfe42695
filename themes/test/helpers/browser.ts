/**
 * A browser for the bin to open (`open` runs `xdg-open` on Linux, which, with no desktop detected, hands the
 * address to the command in `BROWSER`), and the person at it, who approves the platform's sign-in page.
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface FakeBrowser {
  /** Variables under which `xdg-open` runs the fake (see {@link browserEnv}). */
  env: Record<string, string | undefined>;
  /** The addresses opened so far, in order. */
  opened(): Promise<string[]>;
  /** The addresses opened, once there are `count` (the browser starts in the background: it may come late). */
  waitForOpened(count: number, timeout?: number): Promise<string[]>;
}

/** Variables under which `xdg-open` hands an address to `command`: a generic desktop, no display, `BROWSER` set. */
export function browserEnv(command: string): Record<string, string | undefined> {
  return { BROWSER: command, XDG_CURRENT_DESKTOP: 'X-Generic', DISPLAY: undefined, WAYLAND_DISPLAY: undefined };
}

/** A stand-in browser in `dir`: a script that appends each address it is given to a file, one per line. */
export async function fakeBrowser(dir: string): Promise<FakeBrowser> {
  const record = join(dir, 'opened.txt');
  const command = join(dir, 'browser');
  await writeFile(record, '');
  await writeFile(command, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${record}'\n`);
  await chmod(command, 0o755);
  const opened = async () => (await readFile(record, 'utf8')).split('\n').filter(Boolean);
  return {
    env: browserEnv(command),
    opened,
    async waitForOpened(count, timeout = 15_000) {
      const until = performance.now() + timeout;
      for (;;) {
        const lines = await opened();
        if (lines.length >= count) return lines;
        if (performance.now() > until) throw new Error(`the browser opened ${JSON.stringify(lines)}, not ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

/** Fills and approves the platform's sign-in page at `authorizeUrl`; the address the browser is sent back to. */
export async function approve(authorizeUrl: string, login: string, password: string): Promise<string> {
  const page = await (await fetch(authorizeUrl)).text();
  const fields = Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!.replaceAll('&amp;', '&').replaceAll('&#34;', '"').replaceAll('&quot;', '"'),
    ]),
  );
  const approved = await fetch(new URL('/oauth/authorize', authorizeUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, login, password, decision: 'approve' }),
    redirect: 'manual',
  });
  return approved.headers.get('location')!;
}
