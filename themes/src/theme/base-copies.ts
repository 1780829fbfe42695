/**
 * The text of each template as the folder and the server last agreed on it, which the manifest names only by its
 * MD5: kept under `.storefront/base/<md5>` (a hidden folder, which no command takes for a theme file), so that
 * `pull --merge` has the common base of a three-way merge. Named by digest, a copy is written once whatever
 * file or theme holds it, and a copy no manifest entry names any more is removed when the bases are recorded.
 */
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { lstatInside, NOFOLLOW, readInside, removeInside, writeInside } from './confined.js';
import { md5 } from './digest.js';
import type { Manifest } from './manifest.js';
import type { RemoteFile } from './remote.js';

/** The folder of the copies, inside the theme folder. */
const BASE_DIR = '.storefront/base';

const pathOf = (digest: string, folder = BASE_DIR) => `${folder}/${digest}`;

/**
 * The base text whose MD5 is `digest`, if a copy was kept (folders pulled by earlier versions have none); `folder`
 * is the folder of copies, the pulls' by default (publish keeps its own, see publish-base.ts).
 */
export async function readBase(dir: string, digest: string, folder = BASE_DIR): Promise<string | undefined> {
  if (!/^[0-9a-f]{32}$/.test(digest)) return undefined;
  const bytes = await readInside(dir, pathOf(digest, folder)).catch(() => undefined);
  if (!bytes) return undefined;
  if (md5(bytes) === digest) return bytes.toString('utf8');
  // A copy damaged on disk (a write cut short) is no base: a merge against it would be wrong. Removed, so that the
  // next pull or push that hands over the text writes it anew.
  await removeInside(dir, pathOf(digest, folder)).catch(() => {});
  return undefined;
}

/** Keeps `text` (a template's body, or its UTF-8 bytes) as a base; a damaged copy of it is written anew. */
export async function keepBase(dir: string, text: string | Uint8Array, folder = BASE_DIR): Promise<void> {
  const digest = md5(text);
  // A missing copy reads as none too: one read says whether to write.
  if ((await readBase(dir, digest, folder)) !== undefined) return;
  await writeInside(dir, pathOf(digest, folder), text, { replace: true });
}

/**
 * A keeper of base copies for a push: `keep` collects the texts handed over (and their digests, which the push
 * has computed already), `done` writes the copies the folder lacks in one batch, once the push's requests are over.
 * The folder of the copies is checked once (no link on the way: the first copy goes through `writeInside`) and
 * listed once; then each missing copy is created new, never through a link, with synchronous calls: a few
 * hundred small files cost a few milliseconds that way, where as many asynchronous writes, three thread-pool
 * round trips each, slowed the push they ran beside by a sixth. A copy is not renamed into place as other files
 * are: one cut short is caught by its digest when read, and then counts as none. A copy that cannot be written
 * costs a later merge its base, never the push.
 */
export function baseKeeper(dir: string): {
  keep(text: string | Uint8Array, digest?: string): void;
  done(): Promise<void>;
} {
  const texts = new Map<string, string | Uint8Array>();
  return {
    keep(text, digest = md5(text)) {
      texts.set(digest, text);
    },
    async done() {
      const [first, ...rest] = texts;
      if (!first) return;
      texts.clear();
      try {
        await keepBase(dir, first[1]);
        const info = await lstatInside(dir, BASE_DIR);
        if (!info?.isDirectory()) return;
        const folder = join(dir, BASE_DIR);
        const kept = new Set(await readdir(folder));
        const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
        for (const [digest, text] of rest) {
          if (kept.has(digest)) continue;
          try {
            const fd = openSync(join(folder, digest), flags, 0o644);
            try {
              const bytes = typeof text === 'string' ? Buffer.from(text) : text;
              for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at);
            } finally {
              closeSync(fd);
            }
          } catch {}
        }
      } catch {}
    },
  };
}

/**
 * Keeps the text of every template of the manifest whose base is the server's copy in `remote` (after a pull, a
 * push, or a watch's pull), and removes the copies no entry names any more.
 */
export async function recordBases(dir: string, manifest: Manifest, remote: ReadonlyMap<string, RemoteFile>) {
  const wanted = new Set<string>();
  for (const [path, entry] of Object.entries(manifest.files)) {
    if (entry.kind !== 'template') continue;
    wanted.add(entry.md5);
    const there = remote.get(path);
    if (there?.kind === 'template' && there.md5 === entry.md5 && typeof there.entity.properties.body === 'string') {
      await keepBase(dir, there.entity.properties.body);
    }
  }
  const kept = await readdir(join(dir, BASE_DIR)).catch(() => [] as string[]);
  for (const name of kept) if (!wanted.has(name)) await removeInside(dir, pathOf(name)).catch(() => {});
}
