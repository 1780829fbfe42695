/**
 * Where the explorer's browser tests put their screenshots: docs/images/ (the server guide shows them) when
 * STOREFRONT_SCREENSHOTS=docs, else a temporary folder: a test run should not leave changed files in everyone's
 * work tree.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export async function screenshotDir(): Promise<string> {
  if (process.env.STOREFRONT_SCREENSHOTS !== 'docs') return mkdtemp(join(tmpdir(), 'explorer-screenshots-'));
  const dir = fileURLToPath(new URL('../../../docs/images/', import.meta.url));
  await mkdir(dir, { recursive: true });
  return dir;
}
