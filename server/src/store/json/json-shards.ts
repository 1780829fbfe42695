/**
 * A collection of many small rows spread over JSON array files ("shards") by a hash of the id, in a directory
 * `<stem>.<collection>.<count>/` holding `0.json` … `<count - 1>.json`.
 *
 * Why: one file for the whole collection makes every write rewrite every row (issuing a token after 100 000
 * rewrote 25 MB); one file per row makes a start open 100 000 files and fills the directory. Shards bound a
 * write to the rows of the shards it touches, and a start reads a few hundred files. Like a hash table, the
 * number of shards doubles once the collection averages more than {@link ROWS_PER_SHARD} rows a shard, so a
 * write's cost stays bounded whatever the size; the doubling rewrites the collection once, which is paid back
 * over the inserts that filled it.
 *
 * Resharding writes the new shards into a new directory, then switches the manifest to it, then deletes the old
 * one: a crash before the switch leaves the old directory in use (the new one is deleted at the next start), a
 * crash after it the new one. The hash and the file names are part of the data format.
 */
import { access, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { mapLimited } from '@storefront-platform/sdk/internal';
import type { PendingWrite } from '../engine.js';
import { StoreFileError } from '../errors.js';
import type { CollectionName } from '../types.js';
import { type Durability, FILES_AT_ONCE, type Staged } from './durable-file.js';
import {
  type CollectionFiles,
  checkRows,
  createDirectory,
  jsonFilesIn,
  type LoadOptions,
  readJson,
  sortById,
  stageJson,
  writeJson,
} from './json-collections.js';
import { stageAll } from './stage-all.js';

/** The average rows per shard past which the shards double (a write then rewrites about 60 KB of tokens). */
export const ROWS_PER_SHARD = 256;

/**
 * The average rows per shard of collections written on the path of other writes: every write of the API adds an
 * event, and one delivery attempt per endpoint. Smaller shards make that addition cost about what a new file of
 * its own would (a 256-row shard of events took a template write from 1× to 1.9×; 32 rows, 1.5×), while a start
 * still reads a bounded number of files (3 000 for 100 000 events).
 */
const SMALL_SHARDS: Partial<Record<CollectionName, number>> = { events: 32, webhook_deliveries: 32 };

/** The average rows per shard of `name` past which its shards double. */
export function rowsPerShard(name: CollectionName): number {
  return SMALL_SHARDS[name] ?? ROWS_PER_SHARD;
}

/** Shards for `rows` rows of `name`: a power of two, with room to grow to twice as many before the next doubling. */
export function shardCountFor(rows: number, name: CollectionName): number {
  const perShard = rowsPerShard(name);
  let count = 1;
  while (rows > (count * perShard) / 2) count *= 2;
  return count;
}

/** The shard of `id` among `count` (a power of two): FNV-1a over its UTF-16 code units, then murmur3's finalizer. */
export function shardOf(id: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  // FNV's low bits depend on the low bits of the input only; the finalizer mixes the high ones down.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) & (count - 1);
}

/** The directory name for a collection in `count` shards. */
export function shardEntry(stem: string, name: CollectionName, count: number): string {
  return `${stem}.${name}.${count}`;
}

const SHARD_FILE = /^(0|[1-9]\d*)\.json$/;

/** One collection's shards. */
export class ShardFiles implements CollectionFiles {
  /**
   * Shard → the ids of the rows it holds, and possibly of rows already deleted: a deletion is dropped the next
   * time its shard is written, once it is sure to be committed. So a write that fails, and is not applied in
   * memory, never leaves a committed row out of its shard.
   */
  private members: Set<string>[] = [];

  /**
   * @param onMove Records a new {@link entry} and {@link count} in the manifest after the shards doubled; the
   * write fails, and keeps the old shards, if it rejects.
   */
  constructor(
    private readonly name: CollectionName,
    private readonly dir: string,
    private readonly stem: string,
    public entry: string,
    public count: number,
    private readonly durability: Durability,
    private readonly onMove: () => Promise<void>,
  ) {}

  private shardPath(shard: number): string {
    return join(this.dir, this.entry, `${shard}.json`);
  }

  private group(ids: Iterable<string>, count: number): Set<string>[] {
    const members = Array.from({ length: count }, () => new Set<string>());
    for (const id of ids) members[shardOf(id, count)]!.add(id);
    return members;
  }

  async load(options: LoadOptions = {}): Promise<unknown[]> {
    const dir = join(this.dir, this.entry);
    // Only a collection that grew past one shard has several: its folder gone is its rows lost (a partial copy), not
    // an empty folder git left out.
    if (this.count > 1 && !(await exists(dir))) {
      throw new StoreFileError(
        dir,
        `is missing, though the manifest lists its ${this.count} shards: its rows are lost`,
      );
    }
    const files = await jsonFilesIn(dir, this.durability, options);
    for (const file of files) {
      const index = SHARD_FILE.exec(file)?.[1];
      if (index === undefined || Number(index) >= this.count) {
        throw new StoreFileError(join(dir, file), `is not one of the ${this.count} shards of ${this.name}`);
      }
    }
    const shards = await mapLimited(files, FILES_AT_ONCE, async (file) => {
      const path = join(dir, file);
      return {
        shard: Number(file.slice(0, -'.json'.length)),
        rows: checkRows(await readJson(path, this.durability), path),
      };
    });
    const byId = new Map<string, { id: string }>();
    const misplaced = new Set<number>();
    this.members = this.group([], this.count);
    for (const { shard, rows } of shards) {
      for (const row of rows) {
        if (byId.has(row.id)) throw new StoreFileError(dir, `Duplicate id "${row.id}"`);
        byId.set(row.id, row);
        const home = shardOf(row.id, this.count);
        this.members[home]!.add(row.id);
        if (home !== shard) misplaced.add(shard).add(home);
      }
    }
    // A row added by hand to any shard moves to its own, so that its next write does not leave a copy behind.
    if (!options.readOnly) {
      await mapLimited([...misplaced], FILES_AT_ONCE, (shard) =>
        writeJson(
          this.shardPath(shard),
          [...this.members[shard]!].map((id) => byId.get(id)),
          this.durability,
        ),
      );
    }
    return sortById([...byId.values()]);
  }

  async create(rows: readonly unknown[]): Promise<void> {
    await this.writeAll(rows as readonly { id: string }[], this.entry, this.count);
    this.members = this.group(
      (rows as { id: string }[]).map((row) => row.id),
      this.count,
    );
  }

  /** Writes `rows` as the shards of a new directory `entry`. */
  private writeAll(rows: readonly { id: string }[], entry: string, count: number): Promise<void> {
    const shards = Array.from({ length: count }, (): { id: string }[] => []);
    for (const row of rows) shards[shardOf(row.id, count)]!.push(row);
    const files = shards.flatMap((shard, index) => (shard.length ? [[`${index}.json`, shard] as const] : []));
    return createDirectory(join(this.dir, entry), files, this.durability);
  }

  filesOf(pending: PendingWrite): number {
    // Growing writes a new directory that the manifest then switches to, in one step.
    if (this.grows(pending)) return 1;
    const shards = new Set<number>();
    for (const id of pending.changes(this.name).keys()) shards.add(shardOf(id, this.count));
    return shards.size;
  }

  private grows(pending: PendingWrite): boolean {
    return pending.count(this.name) > this.count * rowsPerShard(this.name);
  }

  stage(pending: PendingWrite): Promise<Staged> {
    if (this.grows(pending)) return this.stageGrowth(pending);
    const changes = pending.changes(this.name);
    const touched = new Set<number>();
    for (const [id, row] of changes) {
      const shard = shardOf(id, this.count);
      touched.add(shard);
      if (row) this.members[shard]!.add(id);
    }
    return stageAll([...touched], (shard) => {
      const ids = this.members[shard]!;
      const rows = [];
      for (const id of ids) {
        const row = pending.row(this.name, id);
        if (row) rows.push(row);
        else if (!changes.has(id)) ids.delete(id);
      }
      return stageJson(this.shardPath(shard), rows, this.durability);
    });
  }

  /** Staging writes the new directory, unused until the commit switches the manifest to it. */
  private async stageGrowth(pending: PendingWrite): Promise<Staged> {
    const rows = pending.rows(this.name);
    const count = shardCountFor(rows.length, this.name);
    const entry = shardEntry(this.stem, this.name, count);
    await this.writeAll(rows, entry, count);
    const deleted = [...pending.changes(this.name)].filter(([, row]) => !row).map(([id]) => id);
    const discard = () => rm(join(this.dir, entry), { recursive: true, force: true }).catch(() => undefined);
    return {
      commit: async () => {
        const before = [this.entry, this.count, this.members] as const;
        this.entry = entry;
        this.count = count;
        this.members = this.group([...rows.map((row) => row.id), ...deleted], count);
        try {
          await this.onMove();
        } catch (error) {
          [this.entry, this.count, this.members] = before;
          await discard();
          throw error;
        }
        // Left behind by a failure here, it is deleted at the next start.
        await rm(join(this.dir, before[0]), { recursive: true, force: true }).catch(() => undefined);
      },
      discard,
    };
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
