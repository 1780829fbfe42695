/**
 * The text of each template as the folder and the server last agreed on it, which the manifest names only by its
 * MD5: kept under `.storefront/base/` (a hidden folder, which no command takes for a theme file), so that
 * `pull --merge` has the common base of a three-way merge.
 *
 * The texts one command hands over are kept together in one file, a pack: a push of 300 templates creates one
 * file, not 300. Creating a file is what costs (on a busy disk up to 2 ms each, where writing 500 KB into one
 * takes about one), and a full push spent a tenth of its time creating copies. A pack is named by the digests it
 * holds, so the same texts handed over again (one folder pushed to many shops) are written once. A pull keeps the
 * texts the folder's manifests name (its default's and every environment's) in one pack and removes every other
 * copy; so does a push that finds more than 16 copies (`watch` pushes each save: a day of it would leave thousands).
 * Folders from earlier versions hold one file per text, named by its digest: still read, and removed by the next
 * pull.
 *
 * A pack is not renamed into place with a flush: one cut short is caught by the digests of its texts when read,
 * then removed, and counts as none. A copy that cannot be written costs a later merge its base, never the push.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { lstatInside, readInside, removeInside, writeInside } from './confined.js';
import { md5 } from './digest.js';
import { type Manifest, readManifests } from './manifest.js';
import type { RemoteFile } from './remote.js';

/** The folder of the copies, inside the theme folder. */
const BASE_DIR = '.storefront/base';

const DIGEST = /^[0-9a-f]{32}$/;
/** A pack's name: the MD5 of the sorted digests it holds. */
const PACK = /^[0-9a-f]{32}\.pack$/;
/** Packs the pushes may add (`watch` pushes every save) before one of them folds what is still named into one. */
const MAX_PACKS = 16;

/** A text as handed over: a template's body, or its UTF-8 bytes. */
type Text = string | Uint8Array;

/**
 * A pack's bytes: a first line, the JSON list of its texts as `[digest, byte length]` pairs, then the texts'
 * bytes one after the other.
 */
function pack(texts: ReadonlyMap<string, Text>): { name: string; bytes: Buffer } {
  const digests = [...texts.keys()].sort();
  const bodies = digests.map((digest) => Buffer.from(texts.get(digest)!));
  const header = JSON.stringify(digests.map((digest, i) => [digest, bodies[i]!.byteLength]));
  return { name: `${md5(digests.join('\n'))}.pack`, bytes: Buffer.concat([Buffer.from(`${header}\n`), ...bodies]) };
}

/** The texts of a pack whose digests hold, and whether any did not (a pack cut short, or damaged). */
function unpack(bytes: Buffer): { texts: Map<string, Buffer>; damaged: boolean } {
  const texts = new Map<string, Buffer>();
  const end = bytes.indexOf(10);
  let entries: unknown;
  try {
    entries = JSON.parse(bytes.subarray(0, end).toString('utf8'));
  } catch {}
  if (end < 0 || !Array.isArray(entries)) return { texts, damaged: true };
  let at = end + 1;
  for (const entry of entries) {
    const [digest, length] = Array.isArray(entry) ? entry : [];
    if (typeof digest !== 'string' || !Number.isSafeInteger(length) || length < 0) break;
    const text = bytes.subarray(at, at + length);
    at += length;
    if (md5(text) === digest) texts.set(digest, text);
  }
  return { texts, damaged: texts.size !== entries.length || at !== bytes.byteLength };
}

/** A copy of one text (as earlier versions kept them), named by its digest. */
function single(digest: string, bytes: Buffer): { texts: Map<string, Buffer>; damaged: boolean } {
  const whole = md5(bytes) === digest;
  return { texts: new Map(whole ? [[digest, bytes]] : []), damaged: !whole };
}

/** The names in the folder of copies (none when it is missing, or not a folder of its own). */
async function listCopies(dir: string, folder: string): Promise<string[]> {
  const info = await lstatInside(dir, folder).catch(() => undefined);
  if (!info?.isDirectory()) return [];
  return readdir(join(dir, folder)).catch(() => []);
}

/**
 * Every text kept in `folder` (the pulls' by default; publish keeps its own, see publish-base.ts), by digest.
 * A copy or pack found damaged is removed, so that the next command that hands its texts over writes them anew.
 */
async function readCopies(dir: string, folder = BASE_DIR): Promise<Map<string, Buffer>> {
  const kept = new Map<string, Buffer>();
  for (const name of await listCopies(dir, folder)) {
    if (!DIGEST.test(name) && !PACK.test(name)) continue;
    const path = `${folder}/${name}`;
    const bytes = await readInside(dir, path).catch(() => undefined);
    if (!bytes) continue;
    const { texts, damaged } = PACK.test(name) ? unpack(bytes) : single(name, bytes);
    if (damaged) await removeInside(dir, path).catch(() => {});
    for (const [digest, text] of texts) kept.set(digest, text);
  }
  return kept;
}

/**
 * A reader of the base texts kept in `folder` (the pulls' by default): the text whose MD5 is `digest`, if kept
 * (folders pulled by earlier versions may have none). The folder is read at the first call, once.
 */
export function baseReader(dir: string, folder = BASE_DIR): (digest: string) => Promise<string | undefined> {
  let kept: Promise<Map<string, Buffer>> | undefined;
  return async (digest) => {
    kept ??= readCopies(dir, folder);
    return (await kept).get(digest)?.toString('utf8');
  };
}

/** Writes `texts` as one pack in `folder`, unless that pack is there already; resolves with its name. */
async function writePack(dir: string, texts: ReadonlyMap<string, Text>, folder: string): Promise<string> {
  const { name, bytes } = pack(texts);
  const path = `${folder}/${name}`;
  if (!(await lstatInside(dir, path))) await writeInside(dir, path, bytes, { replace: true });
  return name;
}

/**
 * Keeps, as one pack in `folder`, the texts of the digests `wanted` names: the text given beside each, else the
 * copy kept already (a digest kept nowhere stays without a base). Resolves with a function that then removes
 * every other copy in the folder.
 */
export async function keepOnly(
  dir: string,
  wanted: ReadonlyMap<string, Text | undefined>,
  folder = BASE_DIR,
): Promise<() => Promise<void>> {
  const texts = new Map<string, Text>();
  const missing = [...wanted].some(([, text]) => text === undefined);
  const kept = missing ? await readCopies(dir, folder) : new Map<string, Buffer>();
  for (const [digest, text] of wanted) {
    const found = text ?? kept.get(digest);
    if (found !== undefined) texts.set(digest, found);
  }
  const written = texts.size ? await writePack(dir, texts, folder) : undefined;
  return async () => {
    for (const name of await listCopies(dir, folder)) {
      if (name !== written && (DIGEST.test(name) || PACK.test(name))) {
        await removeInside(dir, `${folder}/${name}`).catch(() => {});
      }
    }
  };
}

/**
 * A keeper of base copies for a push: `keep` collects the texts handed over (and their digests, which the push
 * has computed already), `done` writes them as one pack once the push's requests are over.
 */
export function baseKeeper(dir: string): {
  keep(text: Text, digest?: string): void;
  done(): Promise<void>;
} {
  const texts = new Map<string, Text>();
  return {
    keep(text, digest = md5(text)) {
      texts.set(digest, text);
    },
    async done() {
      if (!texts.size) return;
      const held = new Map(texts);
      texts.clear();
      await writePack(dir, held, BASE_DIR)
        .then(() => foldPacks(dir, held))
        .catch(() => {});
    },
  };
}

/** Once pushes added more than {@link MAX_PACKS}, keeps what the manifests name in one pack and removes the rest. */
async function foldPacks(dir: string, held: ReadonlyMap<string, Text>): Promise<void> {
  const copies = (await listCopies(dir, BASE_DIR)).filter((name) => DIGEST.test(name) || PACK.test(name));
  if (copies.length <= MAX_PACKS) return;
  const named = await namedDigests(dir);
  const prune = await keepOnly(dir, new Map([...named].map((digest) => [digest, held.get(digest)])));
  await prune();
}

/**
 * The digests of the templates that the folder's manifests name (its default's and each environment's, which share
 * the copies): the bases a merge may still need.
 */
async function namedDigests(dir: string): Promise<Set<string>> {
  const digests = new Set<string>();
  for (const manifest of await readManifests(dir)) {
    for (const entry of Object.values(manifest.files)) if (entry.kind === 'template') digests.add(entry.md5);
  }
  return digests;
}

/**
 * Keeps the text of every template of the manifest (from the server's copy in `remote` where that is the base,
 * after a pull, a push, or a watch's pull; else the copy kept already) and those the folder's other manifests name,
 * and removes the rest.
 */
export async function recordBases(dir: string, manifest: Manifest, remote: ReadonlyMap<string, RemoteFile>) {
  const wanted = new Map<string, string | undefined>();
  for (const [path, entry] of Object.entries(manifest.files)) {
    if (entry.kind !== 'template') continue;
    const there = remote.get(path);
    const body = there?.kind === 'template' && there.md5 === entry.md5 ? there.entity.properties.body : undefined;
    if (typeof body === 'string' || !wanted.has(entry.md5)) {
      wanted.set(entry.md5, typeof body === 'string' ? body : undefined);
    }
  }
  for (const digest of await namedDigests(dir)) if (!wanted.has(digest)) wanted.set(digest, undefined);
  const prune = await keepOnly(dir, wanted);
  await prune();
}
