/**
 * The PostgreSQL schema a sandbox serves: the one named, kept after the sandbox stops, or a new one of its own,
 * dropped when it stops, so that test files started at once on one database never see each other's data.
 */
import { randomBytes } from 'node:crypto';
import { Client } from '../store/postgres/postgres-driver.js';
import { quoteSchema } from '../store/postgres/postgres-schema.js';

/** A sandbox's schema. */
export interface SandboxSchema {
  /** The database's URL with `?schema={name}`: what `createServer`'s `store` and `--store` take. */
  url: string;
  name: string;
  /** Whether the sandbox made it (then `release()` drops it), rather than being given its name. */
  own: boolean;
  /** Drops the schema when the sandbox made it; keeps a named one. */
  release(): Promise<void>;
}

/** Drops `schema` (with everything in it) from `database`, a URL without `?schema=`; none is no error. */
export async function dropSchema(database: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: database });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${quoteSchema(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * The schema `schema`, else the one `database` names in `?schema=`, else a new one (`sandbox_` and 12 random hex
 * digits; the store creates it at its first start).
 */
export function sandboxSchema(database: string, schema?: string): SandboxSchema {
  const url = new URL(database);
  const named = schema ?? url.searchParams.get('schema') ?? undefined;
  const name = named ?? `sandbox_${randomBytes(6).toString('hex')}`;
  // A bad name is refused before any process starts, in the store's own words.
  quoteSchema(name);
  url.searchParams.set('schema', name);
  const withSchema = url.href;
  url.searchParams.delete('schema');
  const withoutSchema = url.href;
  return {
    url: withSchema,
    name,
    own: named === undefined,
    async release() {
      if (named === undefined) await dropSchema(withoutSchema, name);
    },
  };
}
