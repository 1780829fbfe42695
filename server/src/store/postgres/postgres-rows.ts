/**
 * Writing a write's rows to the PostgreSQL store's tables: every collection's upserts and deletions in one
 * statement (data-modifying `WITH` parts, one per collection), so that a write costs the same round trips however
 * many collections it changes: a theme write and its event, or a development theme's copy. A write too big for
 * one statement (a seed, a theme of large assets) is spread over several, each under {@link CHUNK} rows and
 * {@link CHUNK_BYTES}, well under PostgreSQL's 1 GB message limit.
 */
import type pg from 'pg';
import { StoreError } from '../errors.js';
import type { CollectionName, Collections } from '../types.js';
import { tableOf } from './postgres-schema.js';

type AnyRow = Collections[CollectionName];

/**
 * Rows, and bytes of rows, per statement at most: well under PostgreSQL's 1 GB message limit, whatever the rows
 * weigh (an asset's bytes, up to 40 MB).
 */
const CHUNK = 2000;
const CHUNK_BYTES = 64 * 1024 * 1024;
/** `inserted` is the write's number times this plus the row's place in the write: rows keep their order. */
const PLACES = 4_294_967_296n;

/** What a write does to one collection: rows written whole, in order, and ids deleted. */
export interface CollectionChanges {
  name: CollectionName;
  upserts: readonly AnyRow[];
  deletes: readonly string[];
}

type Part =
  | { kind: 'upsert'; name: CollectionName; ids: string[]; texts: string[]; from: number }
  | { kind: 'delete'; name: CollectionName; ids: readonly string[] };

/** One statement of `parts`, write number `$1`. */
function statement(schema: string, seq: number, parts: readonly Part[]): { text: string; values: unknown[] } {
  const values: unknown[] = [seq];
  const param = (value: unknown) => `$${values.push(value)}`;
  const writes = parts.map((part, at) => {
    const table = tableOf(schema, part.name);
    if (part.kind === 'delete') {
      return `d${at} AS (UPDATE ${table} SET row = NULL, version = $1, deleted_at = now() WHERE id = ANY(${param(part.ids)}::text[]))`;
    }
    const [ids, texts, from] = [param(part.ids), param(part.texts), param(part.from)];
    return `u${at} AS (INSERT INTO ${table} AS t (id, row, inserted, version)
       SELECT u.id, u.row, $1::bigint * ${PLACES} + ${from}::bigint + u.n, $1 FROM unnest(${ids}::text[], ${texts}::json[]) WITH ORDINALITY AS u(id, row, n)
       ON CONFLICT (id) DO UPDATE SET row = excluded.row, version = excluded.version,
         inserted = CASE WHEN t.row IS NULL THEN excluded.inserted ELSE t.inserted END)`;
  });
  return { text: `WITH ${writes.join(',\n')} SELECT 1`, values };
}

/** Writes `changes` as write number `seq` on `db` (inside its transaction). */
export async function writeRows(
  db: pg.PoolClient,
  schema: string,
  seq: number,
  changes: readonly CollectionChanges[],
): Promise<void> {
  let parts: Part[] = [];
  let rows = 0;
  let bytes = 0;
  const flush = async () => {
    if (parts.length) await db.query(statement(schema, seq, parts));
    parts = [];
    rows = 0;
    bytes = 0;
  };
  for (const { name, upserts, deletes } of changes) {
    let chunk: Extract<Part, { kind: 'upsert' }> | undefined;
    for (const [at, row] of upserts.entries()) {
      if (typeof row.id !== 'string' || row.id === '') throw new StoreError(`Invalid ${name} id`);
      if (rows >= CHUNK || bytes >= CHUNK_BYTES) {
        await flush();
        chunk = undefined;
      }
      if (!chunk) {
        chunk = { kind: 'upsert', name, ids: [], texts: [], from: at };
        parts.push(chunk);
      }
      const text = JSON.stringify(row);
      chunk.ids.push(row.id);
      chunk.texts.push(text);
      rows++;
      bytes += text.length;
    }
    if (deletes.length) {
      parts.push({ kind: 'delete', name, ids: deletes });
      rows += deletes.length;
    }
  }
  await flush();
}
