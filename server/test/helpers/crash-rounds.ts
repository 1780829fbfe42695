import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { assetDigest } from '../../src/api/themes/asset.js';
import { seed } from '../../src/seed/index.js';
import { createJsonStore, type JsonStore } from '../../src/store/json/json-file.js';
import type { Dataset } from '../../src/store/types.js';
import { startCli } from './cli-process.js';
import { journalLine } from './journal-file.js';
import { tokenRequest } from './test-server.js';

/** The demo app of the data {@link crashData} writes. */
const CLIENT = { clientId: 'crash-client', clientSecret: 'crash-secret' };

/** Templates of the production theme (shop 1's theme 1): as many as in the report of issue 30. */
export const TEMPLATES = 614;

/**
 * Writes seeded data at `dir/db.json` whose production theme 1 holds {@link TEMPLATES} templates, after `extend`
 * has had its say; returns the path.
 */
export async function crashData(dir: string, extend: (data: Dataset) => void = () => undefined): Promise<string> {
  const path = join(dir, 'db.json');
  const { dataset } = seed({ products: 3, ...CLIENT });
  const own = dataset.templates.filter((t) => t.theme_id === '1');
  for (let n = own.length; n < TEMPLATES; n++) {
    const stamp = '2026-01-01T00:00:00.000Z';
    const body = `<!-- page ${n} -->\n${'<p>{{ shop.name }}</p>\n'.repeat(60)}`;
    dataset.templates.push({
      id: String(dataset.templates.length + 1),
      theme_id: '1',
      file_name: `pages/page-${n}.html`,
      body,
      created_on: stamp,
      updated_on: stamp,
    });
  }
  extend(dataset);
  await (await createJsonStore(path, { initial: () => dataset, sync: false })).close();
  return path;
}

/** An SVG of about `bytes` bytes, different for each `seed`. */
export function bigSvg(seed: string, bytes: number): Uint8Array {
  const filler = Array.from({ length: Math.ceil(bytes / 64) }, (_, n) => `${seed}-${n}`.padEnd(63, '.')).join('\n');
  return new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg"><!--\n${filler}\n--></svg>`);
}

/** What a round's request got before the kill: its status, or nothing when the kill cut it. */
export type Answer = { status: number } | undefined;

export interface CrashRounds {
  /** The data's path, written by {@link crashData}. */
  path: string;
  rounds: number;
  /** Sends the round's request to the API at `base` (`{origin}/v1`) with an admin token. */
  request(base: string, token: string, round: number): Promise<Response>;
  /**
   * Checks the data after the kill, opened again as the server opens it (a journal the kill left is replayed),
   * and gets it ready for the next round. Round 0 is not killed before its answer: it measures how long a
   * request takes, so that later kills fall within it (each answered round measures again).
   */
  check(store: JsonStore, round: number, answer: Answer): void | Promise<void>;
}

/** What the rounds saw. */
export interface CrashReport {
  /**
   * Rounds whose kill fell in the middle of a write of several files: it left the journal holding something (whole:
   * replayed at the start; torn: discarded) or temporary files (the write's first round, undone at the start).
   */
  replayed: number;
  /** Rounds answered with a 2xx before the kill. */
  acknowledged: number;
  /** Rounds cut before their answer. */
  cut: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a write's temporary files are under `dir` (the lock's are not a write's). */
async function hasTempFiles(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { recursive: true });
  return entries.some((entry) => /(^|\/)\.[^/]*\.json\.tmp$/.test(entry));
}

/**
 * Runs the real server (the CLI, fsync on) over the data `rounds + 1` times: each time it sends one request and
 * kills the server with SIGKILL at a random moment of it, then checks what is on disk.
 */
export async function crashRounds({ path, rounds, request, check }: CrashRounds): Promise<CrashReport> {
  const report: CrashReport = { replayed: 0, acknowledged: 0, cut: 0 };
  let duration = 0;
  for (let round = 0; round <= rounds; round++) {
    const server = startCli(['--port', '0', '--data', path, '--quiet']);
    let answer: Answer;
    try {
      await server.waitFor(/curl -s -H .*\n/);
      const origin = server.stdout().match(/listening on (http:\/\/\S+)/)![1]!;
      const tokenResponse = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, CLIENT);
      const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
      const started = performance.now();
      const sent = request(`${origin}/v1`, token, round).then(
        (response) => {
          // The latest answered request says how long one takes now (the first ones, on a cold process, are slower).
          duration = performance.now() - started;
          return { status: response.status };
        },
        () => undefined,
      );
      if (round === 0) {
        answer = await sent;
        expect(answer?.status, 'the measuring round is answered').toBeLessThan(300);
      } else {
        // Around the end of the request, where its write is (reading and checking the request come first).
        await Promise.race([sent, sleep(duration * (0.4 + Math.random()))]);
      }
      server.child.kill('SIGKILL');
      await server.exited;
      if (round > 0) answer = await sent;
    } finally {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await server.exited;
    }
    if (answer && answer.status < 300) report.acknowledged++;
    else report.cut++;
    // The journal is kept while the server runs, and emptied after each write: one that holds something was cut.
    if ((await journalLine(dirname(path))) || (await hasTempFiles(dirname(path)))) report.replayed++;
    const store = await createJsonStore(path, { sync: false });
    try {
      await check(store, round, answer);
      expectEveryAssetHasItsBytes(store);
    } finally {
      await store.close();
    }
  }
  return report;
}

/** Every asset row has its bytes, of the size and digest the row claims. */
export function expectEveryAssetHasItsBytes(store: JsonStore): void {
  for (const asset of store.all('assets')) {
    const file = store.get('files', asset.id);
    expect(file, `bytes of asset ${asset.id} (${asset.file_name})`).toBeDefined();
    const bytes = Buffer.from(file!.data, 'base64');
    expect([bytes.length, assetDigest(bytes)]).toEqual([asset.file_size, asset.digest]);
  }
}
