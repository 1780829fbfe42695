/**
 * The PostgreSQL store: the memory engine over a database that several processes (workers, hosts) share.
 *
 * Reads stay in memory. Writes of every process are applied one at a time, each on the current rows: a write
 * takes the row lock of the schema's `head` (the number of the last write) in a transaction, reads what other
 * processes wrote since this one last looked and applies it to memory, and only then runs its function. So what
 * the function checks (a token not yet exchanged, a code not yet redeemed, the `updated_on` a client last saw, a
 * free id) holds in the database when the write commits, whichever process it lands on: the lock is the
 * database's, not memory's. A write is acknowledged once committed (PostgreSQL's own fsync).
 *
 * Other processes learn of a write through `NOTIFY`, which PostgreSQL sends to every listening connection as the
 * write commits: their memory is brought up to date within a moment. A write is reported done once every other
 * process applied it or stopped counting as current (`postgres-fleet.ts`), so that the next request on any process
 * sees it while reads cost no round trip; a process that is not current (its lease lapsed, its listening
 * connection down) reads the write counter in `sync()`, which the server awaits before each request. With
 * `freshness: 'notify'` writes do not wait and reads trust the notifications alone: a short window after a write
 * elsewhere.
 *
 * node-postgres (`pg`): pure JavaScript (no native build on users' machines), a pool, LISTEN/NOTIFY on a plain
 * client, parameter arrays for bulk writes, and the most used driver, kept by its author since 2010.
 */
import pg from 'pg';
import { COLLECTIONS } from './collections.js';
import { openStoreEngine, type PendingWrite, type Persistence, type StoreEngine } from './engine.js';
import { StoreError, StoreUnavailableError } from './errors.js';
import { createFleet, type Fleet, type Member } from './postgres-fleet.js';
import { PRUNE_EVERY_MS, pruneDeleted } from './postgres-prune.js';
import { migrateSchema, quoteSchema, tableOf } from './postgres-schema.js';
import type { CollectionName, Collections, Dataset, SharedFailures, Store } from './types.js';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** The data to create the store with when the schema holds none yet (or on `reset`). Default: empty. */
  initial?: () => Partial<Dataset>;
  /** Replace whatever the schema holds with `initial()`. Stop every other process on the schema first. */
  reset?: boolean;
  /**
   * The schema holding the tables, created when missing. Default: the URL's `?schema=` parameter, else
   * `storefront`. Lowercase letters, digits and `_`.
   */
  schema?: string;
  /** Connections this process opens at most besides the listening one. Default 4. */
  connections?: number;
  /**
   * How reads keep current with other processes' writes. `request` (default): a write acknowledged by any
   * process is seen by the next request on every other; a write waits until the other processes applied it
   * (about a millisecond; up to 1.25 × `lease` for one that stopped answering), and a process that cannot be
   * sure it is current reads the write counter before each request. `notify`: this process's writes do not
   * wait, and its reads trust the notifications alone: a request that reaches it right after another process
   * acknowledged a write may still miss it (by about a millisecond). Default: the URL's `?freshness=`, else
   * `request`.
   */
  freshness?: 'request' | 'notify';
  /**
   * How long this process's membership of the fleet runs without a renewal, ms: what it holds up the others'
   * writes (1.25 times this at most) if it stops answering without closing, or dies on another host. Default 2000.
   */
  lease?: number;
}

/** A store in a PostgreSQL database. */
export interface PostgresStore extends Store {
  /** Whether this start created the data (the schema held none, or `reset` was asked for) from `initial`. */
  readonly created: boolean;
  /** The database's URL without its password, and the schema: what logs and messages name. */
  readonly location: string;
  sync(): Promise<void> | undefined;
  /** Reads the write counter (and catches up): rejects when the database cannot be read. `/health` calls it. */
  ping(): Promise<void>;
  /** This process's id among the processes on the schema (their leases: see `postgres-fleet.ts`). */
  readonly processId: string;
  /**
   * Tells the processes on the schema that the process `id` exited (killed, crashed): their writes stop waiting
   * for it at once rather than at the end of its lease. Only for a process known to be gone.
   */
  forgetProcess(id: string): Promise<void>;
  /**
   * Removes the marks that deleted rows leave for other processes once every process on the schema applied them
   * (see `postgres-prune.ts`); each process does it every 10 minutes by itself. Resolves with how many went.
   */
  prune(): Promise<number>;
}

/** Whether `data` names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(data: string): boolean {
  return /^postgres(ql)?:\/\//i.test(data);
}

type AnyRow = Collections[CollectionName];

/**
 * Rows, and bytes of rows, per statement when writing many at once (a seed, a migration): keeps each statement
 * well under PostgreSQL's 1 GB message limit, whatever the rows weigh (an asset's bytes, up to 40 MB).
 */
const CHUNK = 2000;
const CHUNK_BYTES = 64 * 1024 * 1024;
/** `inserted` is the write's number times this plus the row's place in the write: rows keep their order. */
const PLACES = 4_294_967_296n;

interface Target {
  connectionString: string;
  schema: string;
  location: string;
  /** The URL's `?freshness=`, when it has one. */
  freshness: PostgresStoreOptions['freshness'];
}

/** `text` (a store's URL or path, as given) with a URL's password masked: what messages and logs may show. */
export function withoutPassword(text: string): string {
  return text.replace(/(\/\/[^:/@]*):[^@/]*@/, '$1:***@');
}

function targetOf(url: string, schemaOption: string | undefined): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StoreError(`Not a PostgreSQL URL: "${withoutPassword(url)}"`);
  }
  const schema = schemaOption ?? parsed.searchParams.get('schema') ?? 'storefront';
  const freshness = parsed.searchParams.get('freshness') ?? undefined;
  if (freshness !== undefined && freshness !== 'request' && freshness !== 'notify') {
    throw new StoreError(`The PostgreSQL URL's freshness must be request or notify, got "${freshness}"`);
  }
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('freshness');
  quoteSchema(schema);
  const shown = new URL(parsed.href);
  if (shown.password) shown.password = '***';
  return { connectionString: parsed.href, schema, location: `${shown.href} (schema ${schema})`, freshness };
}

/** A connection or query failure, named after the database and without its password. */
/**
 * A database that stops answering (a dropped route, a failover) must not hold the write queue and every request
 * forever: connecting and each statement give up after a while, and idle connections are kept alive.
 */
const CONNECTION_LIMITS = { connectionTimeoutMillis: 5000, query_timeout: 30_000, keepAlive: true } as const;

function failure(target: Target, what: string, error: unknown, Kind = StoreError): StoreError {
  return new Kind(`PostgreSQL ${target.location}: ${what}: ${(error as Error).message}`, { cause: error });
}

/** One holder at a time; `lock()` resolves with the release. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => held);
    return ready;
  }
}

/**
 * Opens the store in the database at `url`: applies the schema's missing migrations, creates the data from
 * `options.initial` when the schema holds none, loads it into memory and listens for other processes' writes.
 */
export async function createPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const target = targetOf(url, options.schema);
  const freshness = options.freshness ?? target.freshness ?? 'request';
  const schema = quoteSchema(target.schema);
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: options.connections ?? 4,
    ...CONNECTION_LIMITS,
  });
  // An idle connection the server dropped (a restart): the next query opens another; nothing to crash over.
  pool.on('error', () => undefined);
  let listener: pg.Client | undefined;
  let fleet: Fleet | undefined;
  /** Set once the store is closed, or failed to open: no reconnection after that. */
  let closed = false;
  try {
    const client = await pool.connect().catch((error) => {
      throw failure(target, 'cannot connect', error);
    });
    let created: boolean;
    try {
      await migrateSchema(client, target.schema);
      created = await createData(client, schema, options);
    } finally {
      client.release();
    }
    const channel = `storefront_changes_${target.schema}`;
    const ackChannel = `storefront_acks_${target.schema}`;
    let engine: StoreEngine | undefined;
    /** The highest write number announced to this process. */
    let announced = 0;
    /** The catch-up with announced writes under way. */
    let catching: Promise<void> | undefined;
    const bringUp = (): Promise<void> => {
      if (catching) return catching;
      const target = announced;
      catching = catchUpOutside(0).then(
        () => {
          catching = undefined;
          // Writes announced meanwhile get a catch-up of their own. A write announced before is read by the
          // catch-up that follows; one it did not reach was no write (any role may NOTIFY) or had no rows (a reset).
          if (announced > target) void bringUp().catch(() => undefined);
          else if (announced > state.seen) announced = state.seen;
        },
        (error: unknown) => {
          catching = undefined;
          throw error;
        },
      );
      return catching;
    };
    const onWrite = (seq: number) => {
      announced = Math.max(announced, seq);
      if (engine && seq > state.seen) void bringUp().catch(() => undefined);
    };
    /** Whether the listening connection is up: without it, every request checks the write counter. */
    let listening = true;
    const onLost = () => {
      listening = false;
      fleet!.lost();
      if (closed) return;
      // Reconnected in the background, one attempt at a time; requests meanwhile check the counter themselves.
      const retry = () =>
        listen(target, [channel, ackChannel], onNotification, onLost).then(
          (client) => {
            if (closed) return void client.end();
            listener = client;
            listening = true;
            // Writes made while it was down were announced to nobody; the lease is trusted again once renewed.
            if (engine) void bringUp().catch(() => undefined);
            void fleet!.renew(client).catch(() => undefined);
          },
          () => {
            if (!closed) setTimeout(retry, 1000).unref();
          },
        );
      setTimeout(retry, 100).unref();
    };
    const onNotification = (from: string, payload: string) => {
      if (from === ackChannel) return fleet!.onAck(payload);
      // Any role that may connect may NOTIFY: only a write number counts.
      const seq = Number(payload);
      if (Number.isSafeInteger(seq) && seq > 0) onWrite(seq);
    };
    const state = { seen: 0 };
    fleet = createFleet(
      {
        pool,
        schema,
        ackChannel,
        seen: () => state.seen,
        catchUpAnnounced: () => (engine && announced > state.seen ? bringUp() : Promise.resolve()),
      },
      options.lease,
    );
    listener = await listen(target, [channel, ackChannel], onNotification, onLost);
    // Registered before the data is read: a write committed after this lists this process, one before is read.
    await fleet.renew(listener).catch((error) => {
      throw failure(target, 'cannot join the processes', error);
    });
    const loaded = await load(pool, schema);
    state.seen = loaded.head;
    fleet.applied(state.seen);
    const mutex = new Mutex();
    /**
     * Applies the rows other processes wrote since this one last looked. `known`: a write number committed before
     * the query starts (the head read; 0 for none), reached even when no row carries it (a reset).
     */
    const catchUp = async (db: pg.Pool | pg.PoolClient, known: number) => {
      const { rows } = await db.query<{ c: CollectionName | null; id: string; row: AnyRow | null; version: string }>(
        catchUpSql(schema),
        [state.seen],
      );
      // Deletions this process did not apply lost their marks: only every row tells what is gone.
      if (Number(rows[0]!.version) > state.seen) return reload(db);
      const changes = new Map<CollectionName, Map<string, AnyRow | null>>();
      let top = Math.max(state.seen, known);
      for (const { c, id, row, version } of rows.slice(1)) {
        const rowsOf = changes.get(c!) ?? new Map<string, AnyRow | null>();
        changes.set(c!, rowsOf.set(id, row));
        top = Math.max(top, Number(version));
      }
      if (changes.size) engine!.applyOutside(changes);
      advance(top);
    };
    /** Replaces memory with every row of one snapshot, as if caught up with its head. */
    const reload = async (db: pg.Pool | pg.PoolClient) => {
      const loaded = await load(db, schema);
      const changes = new Map<CollectionName, Map<string, AnyRow | null>>();
      for (const name of COLLECTIONS) {
        const rowsOf = new Map<string, AnyRow | null>();
        for (const row of engine!.store.all(name)) rowsOf.set(row.id, null);
        for (const id of loaded.deleted.get(name) ?? []) rowsOf.set(id, null);
        for (const row of loaded.data[name] ?? []) rowsOf.set(row.id, row);
        if (rowsOf.size) changes.set(name, rowsOf);
      }
      engine!.applyOutside(changes);
      advance(loaded.head);
    };
    const advance = (top: number) => {
      if (top === state.seen) return;
      state.seen = top;
      fleet!.applied(top);
    };
    const catchUpOutside = async (known: number) => {
      const release = await mutex.lock();
      try {
        await catchUp(pool, known);
      } finally {
        release();
      }
    };
    const members = freshness === 'request' ? fleet : undefined;
    engine = openStoreEngine(loaded.data, writeThrough(pool, schema, channel, target, mutex, state, catchUp, members));
    for (const [name, ids] of loaded.deleted) {
      engine.applyOutside(new Map([[name, new Map(ids.map((id) => [id, null]))]]));
    }
    fleet.start();
    const prune = () => pruneDeleted(pool, schema, target.schema, fleet!.horizonSql);
    const pruning = setInterval(() => void prune().catch(() => undefined), PRUNE_EVERY_MS);
    pruning.unref();
    // Writes announced while the data loaded.
    if (announced > state.seen) void bringUp().catch(() => undefined);
    const store = engine.store;
    let waiting: Promise<void> | undefined;
    let running: Promise<void> | undefined;
    const headQuery = { name: 'storefront-head', text: `SELECT seq FROM ${schema}.head` };
    const check = async () => {
      const { rows } = await pool.query<{ seq: string }>(headQuery);
      const head = Number(rows[0]!.seq);
      if (head > state.seen) await catchUpOutside(head);
    };
    // A request needs a check that starts after it arrived. The check starts once the event loop has taken in
    // what arrived meanwhile (setImmediate), so that the requests of one turn, and those arriving while a check
    // runs, share one: under load a read costs a small fraction of a round trip.
    const checked = (): Promise<void> => {
      if (closed) return Promise.resolve();
      waiting ??= new Promise<void>((resolve, reject) => {
        const start = () => {
          waiting = undefined;
          const current = check()
            .catch((error) => {
              fleet!.distrust();
              throw failure(target, 'cannot read the write counter', error);
            })
            .finally(() => {
              running = undefined;
            });
          running = current;
          current.then(resolve, reject);
        };
        setImmediate(() => (running ? running.catch(() => undefined).then(start) : start()));
      });
      return waiting;
    };
    // A request waits only while this process applies writes announced to it, and costs nothing otherwise;
    // without the listening connection, or (`request`) without a trusted lease, each request checks the counter.
    const sync = (): Promise<void> | undefined => {
      if (closed) return undefined;
      if (!listening || (freshness === 'request' && !fleet!.current())) return checked();
      return announced > state.seen ? bringUp() : undefined;
    };
    let closing: Promise<void> | undefined;
    return {
      ...store,
      created,
      location: target.location,
      sync,
      ping: checked,
      processId: fleet.id,
      forgetProcess: (id) => fleet!.forget(id),
      prune,
      failures: sharedFailures(pool, schema),
      close() {
        closing ??= store.close().finally(async () => {
          closed = true;
          clearInterval(pruning);
          await fleet!.close();
          await listener?.end().catch(() => undefined);
          // After the listening connection ended: no renewal can write the row again.
          await fleet!.leave();
          await pool.end().catch(() => undefined);
        });
        return closing;
      },
    };
  } catch (error) {
    closed = true;
    await fleet?.close();
    await listener?.end().catch(() => undefined);
    await fleet?.leave();
    await pool.end().catch(() => undefined);
    throw error instanceof StoreError ? error : failure(target, 'cannot open the data', error);
  }
}

/** The failed-login counts in `login_failures`, one statement each. */
function sharedFailures(pool: pg.Pool, schema: string): SharedFailures {
  const counts = (rows: { key: string; failures: number; last: string }[]) =>
    new Map(rows.map((row) => [row.key, { failures: row.failures, last: Number(row.last) }]));
  return {
    async read(keys) {
      const { rows } = await pool.query(
        `SELECT key, failures, last FROM ${schema}.login_failures WHERE key = ANY($1)`,
        [keys],
      );
      return counts(rows);
    },
    async fail(key, now, forgetMs) {
      // Counts past their forget time say nothing any more: dropped here, so that the table does not grow forever.
      const { rows } = await pool.query(
        `WITH forgotten AS (DELETE FROM ${schema}.login_failures WHERE last < $2::bigint - $3::bigint AND key <> $1)
         INSERT INTO ${schema}.login_failures AS f (key, failures, last) VALUES ($1, 1, $2)
         ON CONFLICT (key) DO UPDATE SET last = excluded.last,
           failures = CASE WHEN excluded.last - f.last > $3 THEN 1 ELSE f.failures + 1 END
         RETURNING key, failures, last`,
        [key, now, forgetMs],
      );
      return counts(rows).get(key)!;
    },
    async clear(key) {
      await pool.query(`DELETE FROM ${schema}.login_failures WHERE key = $1`, [key]);
    },
  };
}

/** A client listening on `channels`; `onLost` once its connection ends unasked. */
async function listen(
  target: Target,
  channels: readonly string[],
  onNotification: (channel: string, payload: string) => void,
  onLost: () => void,
): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: target.connectionString, ...CONNECTION_LIMITS });
  client.on('notification', (message) => onNotification(message.channel, message.payload ?? ''));
  // Without a listener an error event would crash the process; the connection's end says what to do.
  client.on('error', () => undefined);
  let ending = false;
  const end = client.end.bind(client);
  client.end = (() => {
    ending = true;
    return end();
  }) as typeof client.end;
  try {
    await client.connect();
    await client.query(channels.map((channel) => `LISTEN "${channel}"`).join('; '));
  } catch (error) {
    // A failed attempt ends the client too: `onLost` is for a connection that was up, so it is attached after.
    await end().catch(() => undefined);
    throw failure(target, 'cannot listen', error);
  }
  client.once('end', () => {
    if (!ending) onLost();
  });
  return client;
}

/**
 * The rows written since write `$1`, in their order, after a first row (`c` null) whose `version` is
 * `head.pruned`: one statement, so both come from one snapshot.
 */
function catchUpSql(schema: string): string {
  const parts = COLLECTIONS.map(
    (name) => `SELECT '${name}' AS c, id, row, inserted, version FROM ${tableOf(schema, name)} WHERE version > $1`,
  );
  const pruned = `SELECT NULL AS c, NULL AS id, NULL::json AS row, -1::bigint AS inserted, pruned AS version FROM ${schema}.head`;
  return `SELECT c, id, row, version FROM (${[pruned, ...parts].join(' UNION ALL ')}) AS changed ORDER BY inserted`;
}

/** Under the write lock: the initial data when the schema holds none (or on `reset`). Whether it created it. */
async function createData(client: pg.PoolClient, schema: string, options: PostgresStoreOptions): Promise<boolean> {
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<{ seq: string }>(`SELECT seq FROM ${schema}.head FOR UPDATE`);
    let seq = Number(rows[0]!.seq);
    const empty = seq === 0;
    if (!empty && !options.reset) {
      await client.query('ROLLBACK');
      return false;
    }
    if (options.reset) {
      // DELETE rather than TRUNCATE: on small tables it is many times faster (no new files to create and sync).
      await client.query(COLLECTIONS.map((name) => `DELETE FROM ${tableOf(schema, name)}`).join('; '));
    }
    const data = options.initial?.() ?? {};
    seq += 1;
    let wrote = false;
    for (const name of COLLECTIONS) {
      const rows = data[name] ?? [];
      if (!rows.length) continue;
      await upsert(client, schema, name, rows as AnyRow[], seq);
      wrote = true;
    }
    if (wrote || options.reset) await client.query(`UPDATE ${schema}.head SET seq = $1`, [seq]);
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Writes `rows` of `name` as write number `seq`, in order, in chunks. */
async function upsert(
  db: pg.PoolClient,
  schema: string,
  name: CollectionName,
  rows: readonly AnyRow[],
  seq: number,
): Promise<void> {
  const table = tableOf(schema, name);
  for (let from = 0; from < rows.length; ) {
    const ids: string[] = [];
    const texts: string[] = [];
    let bytes = 0;
    while (from + ids.length < rows.length && ids.length < CHUNK && bytes < CHUNK_BYTES) {
      const row = rows[from + ids.length]!;
      if (typeof row.id !== 'string' || row.id === '') throw new StoreError(`Invalid ${name} id`);
      const text = JSON.stringify(row);
      ids.push(row.id);
      texts.push(text);
      bytes += text.length;
    }
    await db.query(
      `INSERT INTO ${table} AS t (id, row, inserted, version)
       SELECT u.id, u.row, $3::bigint * ${PLACES} + $4 + u.n, $3 FROM unnest($1::text[], $2::json[]) WITH ORDINALITY AS u(id, row, n)
       ON CONFLICT (id) DO UPDATE SET row = excluded.row, version = excluded.version,
         inserted = CASE WHEN t.row IS NULL THEN excluded.inserted ELSE t.inserted END`,
      [ids, texts, seq, from],
    );
    from += ids.length;
  }
}

interface Loaded {
  data: Partial<Dataset>;
  /** Ids of deleted rows by collection: never handed out again. */
  deleted: Map<CollectionName, string[]>;
  head: number;
}

/**
 * Every row and the write counter, from one snapshot: of a transaction of its own on `db` when it is the pool, or
 * on `db`, a write's connection, whose write lock keeps every other write out meanwhile.
 */
async function load(db: pg.Pool | pg.PoolClient, schema: string): Promise<Loaded> {
  if (!(db instanceof pg.Pool)) return readAll(db, schema);
  const client = await db.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const loaded = await readAll(client, schema);
    await client.query('COMMIT');
    return loaded;
  } finally {
    client.release();
  }
}

async function readAll(client: pg.PoolClient, schema: string): Promise<Loaded> {
  const { rows } = await client.query<{ seq: string }>(`SELECT seq FROM ${schema}.head`);
  const data: Partial<Dataset> = {};
  const deleted = new Map<CollectionName, string[]>();
  for (const name of COLLECTIONS) {
    const result = await client.query<{ id: string; row: AnyRow | null }>(
      `SELECT id, row FROM ${tableOf(schema, name)} ORDER BY inserted`,
    );
    const live: AnyRow[] = [];
    const gone: string[] = [];
    for (const { id, row } of result.rows) {
      if (row) live.push(row);
      else gone.push(id);
    }
    (data as Record<CollectionName, AnyRow[]>)[name] = live;
    if (gone.length) deleted.set(name, gone);
  }
  return { data, deleted, head: Number(rows[0]!.seq) };
}

/**
 * Writes through the database: `begin` takes the write lock and catches up, `persist` writes the changed rows as
 * the next write number, announces it and commits. A failed commit leaves memory as it was; if it did commit
 * after all (a connection lost in the middle), the next write or `sync()` reads it back like another process's.
 */
function writeThrough(
  pool: pg.Pool,
  schema: string,
  channel: string,
  target: Target,
  mutex: Mutex,
  state: { seen: number },
  catchUp: (db: pg.PoolClient, known: number) => Promise<void>,
  fleet: Fleet | undefined,
): Persistence {
  let session: { client: pg.PoolClient; release: () => void } | undefined;
  const end = async (sql: string, error?: Error): Promise<pg.QueryResult[]> => {
    const current = session;
    session = undefined;
    if (!current) return [];
    let failed = error;
    try {
      return (await current.client.query(sql)) as unknown as pg.QueryResult[];
    } catch (cause) {
      // A COMMIT that failed half-way leaves the transaction open with the head row's lock: never back in the pool.
      failed ??= cause as Error;
      throw cause;
    } finally {
      current.client.release(failed);
      current.release();
    }
  };
  return {
    async begin() {
      const release = await mutex.lock();
      let client: pg.PoolClient | undefined;
      try {
        client = await pool.connect();
        // One round trip (a simple query of two statements): a write's cost is mostly its round trips.
        const results = (await client.query(
          `BEGIN; SELECT seq FROM ${schema}.head FOR UPDATE`,
        )) as unknown as pg.QueryResult[];
        const head = Number(results[1]!.rows[0].seq);
        if (head > state.seen) await catchUp(client, head);
        session = { client, release };
      } catch (error) {
        if (client) {
          await client.query('ROLLBACK').catch(() => undefined);
          client.release(error as Error);
        }
        release();
        throw error instanceof StoreError
          ? error
          : failure(target, 'cannot begin a write', error, StoreUnavailableError);
      }
    },
    async persist(write: PendingWrite) {
      const client = session!.client;
      const seq = state.seen + 1;
      try {
        for (const name of write.changed) {
          const upserts: AnyRow[] = [];
          const deletes: string[] = [];
          for (const [id, row] of write.changes(name)) {
            if (row) upserts.push(row);
            else deletes.push(id);
          }
          if (upserts.length) await upsert(client, schema, name, upserts, seq);
          if (deletes.length) {
            await client.query(`UPDATE ${tableOf(schema, name)} SET row = NULL, version = $2 WHERE id = ANY($1)`, [
              deletes,
              seq,
            ]);
          }
        }
        // One round trip again; `seq` is a number and the channel a checked name, so nothing here needs quoting.
        // The processes the write waits for are those with a lease when it commits (see `postgres-fleet.ts`).
        const results = await end(
          `UPDATE ${schema}.head SET seq = ${seq}; SELECT pg_notify('${channel}', '${seq}'); ` +
            `${fleet ? `${fleet.membersSql}; ` : ''}COMMIT`,
        );
        state.seen = seq;
        if (fleet) return { visible: fleet.settle(seq, (results[2]?.rows ?? []) as Member[]) };
      } catch (error) {
        await end('ROLLBACK', error as Error).catch(() => undefined);
        // A row the store refuses (StoreError) is a bug of the caller's, not an unavailable database.
        throw error instanceof StoreError
          ? error
          : failure(target, 'the write was not confirmed', error, StoreUnavailableError);
      }
    },
    async abandon() {
      await end('ROLLBACK').catch(() => undefined);
    },
  };
}
