/**
 * pg loads without Node's fetch stack: its Cloudflare Workers check, on Node 20 (no `navigator`), would build a
 * `Response` and load undici, about 20 ms of a PostgreSQL start (issue 49). The `navigator` the driver module lends
 * it exists only while pg loads. In a process of its own: a test worker has loaded undici already.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const driver = fileURLToPath(new URL('../../src/store/postgres/postgres-driver.ts', import.meta.url));

it('loads pg without loading undici, and leaves navigator as it found it', () => {
  const script = `
    const before = typeof navigator;
    const { Pool, Client } = await import(${JSON.stringify(driver)});
    console.log(JSON.stringify({
      before,
      after: typeof navigator,
      driver: typeof Pool === 'function' && typeof Client === 'function',
      undici: process.moduleLoadList.some((name) => name.includes('undici')),
    }));`;
  const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  const loaded = JSON.parse(output);
  expect(loaded).toEqual({ before: loaded.before, after: loaded.before, driver: true, undici: false });
});
