/**
 * What `maxResponseSize` holds a client to under answers too large (issue 40): a server in this process sends
 * answers of 450 MB without `Content-Length` (chunked, so the client must count as it reads), and a client in a
 * child process of its own reads them, so that the child's peak RSS (`process.resourceUsage().maxRSS`) is the SDK's
 * alone.
 *
 * - limit 32 MiB: eight concurrent 450 MB answers (200), and in another process eight concurrent error answers as
 *   large (500, which the client would retry were it not refused): each must end in a `ResponseTooLargeError` after
 *   the SDK read at most the limit plus the chunk that crossed it, and the child's peak RSS must stay under 300 MB
 *   (eight bodies at the limit at once are 268 MB: what is left is Node's own once `fetch` is loaded, about 61 MB
 *   on Node 20.20, and what the eight do not hold at the same moment). Measured 2026-12-07: 291 to 362 MB over
 *   eight runs, as plain `fetch` + `text()` (353 to 356 MB) and one holding every chunk in an array (332 to 361 MB):
 *   the eight reads reach the limit together, so the floor is about 330 MB and the target is not met without a
 *   streaming JSON parser or a byte budget shared by the process's reads;
 * - the default limit (64 MiB for an answer that is not a theme; `/ok` is the root): one 450 MB answer, refused
 *   after at most the limit plus a chunk (its peak RSS is printed: the client holds what it read until the limit is
 *   passed).
 *
 * Bytes read are counted by a `fetch` below the SDK that counts what the SDK pulls from each response body.
 *
 *   npx tsx bench/sdk-body-limit.bench.ts
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Round } from './body-limit-child.js';

const ANSWER_BYTES = 450_000_000;
const CHUNK = Buffer.alloc(64 * 1024, 'a');
const LIMIT = 32 * 1024 * 1024;
const CONCURRENT = 8;
const RSS_TARGET = 300_000_000;

/** Writes up to `ANSWER_BYTES` to `res`, with backpressure; counts what was written. */
function pump(res: ServerResponse, written: { bytes: number }): void {
  const more = () => {
    while (written.bytes < ANSWER_BYTES) {
      written.bytes += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', more);
    }
    res.end();
  };
  more();
}

async function main(): Promise<void> {
  const answers: { finished: boolean; written: number }[] = [];
  const server = createServer((req, res) => {
    const written = { bytes: 0 };
    res.on('close', () => answers.push({ finished: res.writableFinished, written: written.bytes }));
    res.writeHead(req.url === '/error' ? 500 : 200, { 'content-type': 'application/json' });
    pump(res, written);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let failed = false;
  const check = (ok: boolean, what: string) => {
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failed = true;
  };
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const dir = await mkdtemp(join(tmpdir(), 'body-limit-'));
  try {
    const child = await bundleChild(dir);
    const times = (path: string, count: number) => Array.from({ length: count }, () => path);
    // Each in a process of its own: a peak RSS is the peak of everything the process did before.
    const rounds = [
      await run(child, origin, `${LIMIT}`, times('/ok', CONCURRENT)),
      await run(child, origin, `${LIMIT}`, times('/error', CONCURRENT)),
      await run(child, origin, 'default', ['/ok']),
    ];
    console.log(`answers of ${mb(ANSWER_BYTES)}, chunked; the server wrote ${CHUNK.length} bytes a write`);
    for (const round of rounds) {
      const over = round.read.map((read) => read - round.limit);
      const statuses = [...new Set(round.paths.map((path) => (path === '/error' ? 500 : 200)))].join(', ');
      console.log(
        `limit ${round.limit} bytes, ${round.read.length} concurrent ${statuses} answers: ` +
          `child peak RSS ${mb(round.maxRss)}; read past the limit ${Math.min(...over)}..${Math.max(...over)} bytes ` +
          `(largest chunk ${round.largestChunk})`,
      );
      const names = [...new Set(round.outcomes.map((outcome) => outcome.split(':')[0]))].join(', ');
      check(
        round.outcomes.every((outcome) => outcome.startsWith('ResponseTooLargeError')),
        `every request ended in a ResponseTooLargeError (${names})`,
      );
      check(
        round.read.every((read) => read > round.limit && read <= round.limit + round.largestChunk),
        'each read more than the limit, and at most the limit plus one chunk',
      );
      if (round.limit === LIMIT) check(round.maxRss < RSS_TARGET, `peak RSS under ${mb(RSS_TARGET)}`);
    }
    const requests = rounds.reduce((sum, round) => sum + round.paths.length, 0);
    check(
      answers.length === requests && answers.every((answer) => !answer.finished),
      `the server saw each of its ${requests} answers cut short (${answers.length} closed, one request each: no retry)`,
    );
    console.log(`  the server wrote at most ${mb(Math.max(...answers.map((a) => a.written)))} of an answer`);
  } finally {
    server.closeAllConnections();
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

/** The client process, bundled as an app would be, into `dir`. */
async function bundleChild(dir: string): Promise<string> {
  const outfile = join(dir, 'child.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('body-limit-child.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  return outfile;
}

/** Runs the child, one request per path at once, and returns what it reports. */
async function run(child: string, origin: string, limit: string, paths: string[]): Promise<Round> {
  const childProcess = spawn(process.execPath, [child, origin, limit, ...paths], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  childProcess.stdout.on('data', (data) => {
    output += data;
  });
  const code = await new Promise<number | null>((resolve) => childProcess.on('close', resolve));
  if (code !== 0) throw new Error(`the child exited with ${code}: ${output}`);
  return JSON.parse(output) as Round;
}

await main();
