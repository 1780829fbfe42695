/**
 * How one collection of the JSON-file store lives on disk: all rows in one lowdb `JSONFile` (a JSON
 * array), or, for collections of few large rows (asset bytes), one `JSONFile` per row in a directory,
 * so that storing one upload never rewrites the others.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { PendingWrite } from './engine.js';
import { StoreFileError } from './errors.js';
import type { CollectionName } from './types.js';

/** One collection's files. */
export interface CollectionFiles {
  /** The stored rows, checked to be objects with string ids; `null` when the files do not exist. */
  load(): Promise<unknown[] | null>;
  /** Replaces whatever is stored with `rows` (creation, reset). */
  create(rows: readonly unknown[]): Promise<void>;
  /** Stores the collection's part of a write. */
  persist(write: PendingWrite): Promise<void>;
}

function checkRows(rows: unknown, path: string): unknown[] {
  if (!Array.isArray(rows)) throw new StoreFileError(path, 'expected a JSON array of rows');
  for (const row of rows) checkRow(row, path);
  return rows;
}

function checkRow(row: unknown, path: string): void {
  if (typeof row !== 'object' || row === null || typeof (row as { id?: unknown }).id !== 'string') {
    throw new StoreFileError(path, 'every row must be an object with a string "id"');
  }
}

async function read(file: Low<unknown>, path: string): Promise<unknown> {
  try {
    await file.read();
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'not valid JSON' : 'cannot be read';
    throw new StoreFileError(path, `${reason} (${(error as Error).message})`, { cause: error });
  }
  return file.data;
}

async function write(file: Low<unknown>, data: unknown, path: string): Promise<void> {
  file.data = data;
  try {
    await file.write();
  } catch (error) {
    throw new StoreFileError(path, `cannot write (${(error as Error).message})`, { cause: error });
  }
}

/** All rows of the collection in one JSON array file, rewritten whole when the collection changes. */
export class ArrayFile implements CollectionFiles {
  private readonly file: Low<unknown>;

  constructor(
    private readonly name: CollectionName,
    private readonly path: string,
  ) {
    this.file = new Low<unknown>(new JSONFile(path), null);
  }

  async load(): Promise<unknown[] | null> {
    const rows = await read(this.file, this.path);
    return rows === null ? null : checkRows(rows, this.path);
  }

  create(rows: readonly unknown[]): Promise<void> {
    return write(this.file, rows, this.path);
  }

  persist(pending: PendingWrite): Promise<void> {
    return write(this.file, pending.rows(this.name), this.path);
  }
}

/** A file name for any id: characters outside `[A-Za-z0-9_-]` are percent-encoded, so no id can escape. */
function fileNameOf(id: string): string {
  const safe = Array.from(new TextEncoder().encode(id), (byte) => {
    const c = String.fromCharCode(byte);
    return /[A-Za-z0-9_-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
  return `${safe}.json`;
}

/** One JSON file per row in a directory; a write touches only the files of the rows it changed. */
export class RowFiles implements CollectionFiles {
  constructor(
    private readonly name: CollectionName,
    private readonly dir: string,
  ) {}

  async load(): Promise<unknown[] | null> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreFileError(this.dir, `cannot be read (${(error as Error).message})`, { cause: error });
    }
    // Dot files are the atomic writer's temporaries.
    const files = names.filter((name) => name.endsWith('.json') && !name.startsWith('.'));
    const rows = await Promise.all(
      files.map(async (name) => {
        const path = join(this.dir, name);
        const row = await read(new Low<unknown>(new JSONFile(path), null), path);
        checkRow(row, path);
        return row as { id: string };
      }),
    );
    // Directory order is arbitrary: ids in natural order keep `all()` stable across restarts.
    return rows.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
  }

  async create(rows: readonly unknown[]): Promise<void> {
    try {
      await rm(this.dir, { recursive: true, force: true });
      await mkdir(this.dir, { recursive: true });
    } catch (error) {
      throw new StoreFileError(this.dir, `cannot be created (${(error as Error).message})`, { cause: error });
    }
    await Promise.all(rows.map((row) => this.save((row as { id: string }).id, row)));
  }

  async persist(pending: PendingWrite): Promise<void> {
    const changes = [...pending.changes(this.name)];
    await Promise.all(changes.map(([id, row]) => (row ? this.save(id, row) : this.remove(id))));
  }

  private save(id: string, row: unknown): Promise<void> {
    const path = join(this.dir, fileNameOf(id));
    return write(new Low<unknown>(new JSONFile(path), null), row, path);
  }

  private async remove(id: string): Promise<void> {
    const path = join(this.dir, fileNameOf(id));
    try {
      await rm(path, { force: true });
    } catch (error) {
      throw new StoreFileError(path, `cannot be removed (${(error as Error).message})`, { cause: error });
    }
  }
}
