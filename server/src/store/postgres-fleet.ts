/**
 * The processes on one PostgreSQL schema, and read-your-writes across them without a round trip per read.
 *
 * Each process is a member of the fleet while it holds a lease: a row of `processes` (its id, the backend of its
 * listening connection, until when the lease runs, the last write it applied), renewed on the listening
 * connection a few times per lease. A write, as it commits, lists the other members; before it is reported done
 * it waits until each has applied it (members report each write they apply: `seen` in their row and a
 * notification on the acknowledgement channel), has left (its row deleted as it closed), or its lease ran out.
 * A member answers reads from memory without asking the database only while its own lease runs by its own
 * clock, counted from before it asked for the renewal, so that it stops before the database's copy of the lease
 * ends, and while it has applied every write up to the renewal's. So a write reported done anywhere is in the
 * memory of every process that reads without asking; the others (a lease lapsed or not renewed, the listening
 * connection down) read the write counter before each request, as `postgres.ts` does.
 *
 * A killed member is waited for until its lease ends (its connection closing says nothing of a member cut off
 * from the database that still trusts its lease), or until it is known to have exited (`forget`: a cluster's
 * primary sees its workers exit). The leases are kept in a logged table: after a crash of the
 * database they still say whom to wait for. A renewal takes the write lock in shared mode: it is ordered with
 * every write, which either lists the member or is applied by the member once it caught up with the head the
 * renewal read. The database's clock times the leases and each member's own steady clock its trust: writers
 * wait a quarter of a lease longer than the database says, for a database clock that steps forward.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { PRUNING_VERSION, SCHEMA_VERSION } from './postgres-schema.js';

/**
 * How long a lease runs, ms: a member that stops answering (killed, stopped, cut off) holds up the fleet's writes
 * for up to 1.25 times this.
 */
export const LEASE_MS = 2000;
/** A member trusts its lease for this share of it, against clocks that run at slightly different rates. */
const TRUSTED_SHARE = 0.9;
/** What writers add to a lease, as a share of it: a database clock that steps forward ends leases early. */
const CLOCK_MARGIN = 0.25;
/** Renewals per lease. */
const RENEWALS = 4;
/** A write waiting for members asks the database about them after this long, then at this interval. */
const FIRST_LOOK_MS = 50;
const LOOK_EVERY_MS = 250;

/** A member as a write lists it at its commit. */
export interface Member {
  id: string;
  /** The last write it reported applied. */
  seen: string;
  /** What was left of its lease, ms. */
  ms: number;
}

/** What the fleet needs of the store around it. */
export interface FleetHost {
  pool: pg.Pool;
  /** The quoted schema. */
  schema: string;
  /** The acknowledgement channel's name. */
  ackChannel: string;
  /** The last write this process applied. */
  seen(): number;
  /** Resolves once this process applied what was announced to it; rejects if it cannot. */
  catchUpAnnounced(): Promise<void>;
}

/** This process's membership, and the waits of its writes for the other members. */
export interface Fleet {
  /** This process's id among the members. */
  readonly id: string;
  /** The SQL statement that lists the other members with a running lease, for a write's commit. */
  readonly membersSql: string;
  /**
   * The SQL statement that reads the last write every member with a running lease applied (`horizon`), null while
   * a member of a version before pruning is on the schema.
   */
  readonly horizonSql: string;
  /** Whether reads may be answered from memory without reading the write counter. */
  current(): boolean;
  /** Registers or renews on `listener` (a new listening connection: at once); the lease is trusted from then on. */
  renew(listener: pg.Client): Promise<void>;
  /** Reads may no longer come from memory alone until the next renewal (the database did not answer). */
  distrust(): void;
  /** The listening connection is gone: no renewal on it, no trust until a new one renews. */
  lost(): void;
  /** Starts renewing, once the store's data is loaded. */
  start(): void;
  /** Reports the writes up to `seen` applied, to the members waiting for it (coalesced). */
  applied(seen: number): void;
  /** An acknowledgement notification's payload. */
  onAck(payload: string): void;
  /** Resolves once every one of `members` applied write `seq`, left, or its lease ended. Never rejects. */
  settle(seq: number, members: readonly Member[]): Promise<void>;
  /** Stops renewing and waiting; call it before the listening connection ends, and `leave` after. */
  close(): Promise<void>;
  /** Deletes this process's row, so that no write waits for it. */
  leave(): Promise<void>;
  /** Deletes the row of the member `id`, known to have exited: no write waits for it any more. */
  forget(id: string): Promise<void>;
}

interface Waiter {
  seq: number;
  /** Member id → when its lease ends, by this process's clock. */
  pending: Map<string, number>;
  done: () => void;
}

export function createFleet(host: FleetHost, lease = LEASE_MS): Fleet {
  if (!Number.isFinite(lease) || lease < 100) throw new RangeError(`A lease runs 100 ms or more, got ${lease}`);
  const { pool, schema } = host;
  const id = randomBytes(12).toString('hex');
  /** What a writer adds to what the database says is left of a lease (see CLOCK_MARGIN). */
  const margin = lease * CLOCK_MARGIN;
  /** Whether a row's lease runs, as writers count it. */
  const leaseRuns = `lease_until > now() - interval '${margin} milliseconds'`;
  /** Until when (performance.now()) the lease is trusted, and the head the renewal read. */
  let trustedUntil = 0;
  let leaseHead = Number.POSITIVE_INFINITY;
  let listener: pg.Client | undefined;
  let renewing: NodeJS.Timeout | undefined;
  let inFlight = false;
  let closed = false;
  /** Highest write reported by each member (forgotten once it left). */
  const acked = new Map<string, number>();
  const waiters = new Set<Waiter>();

  const renewal = async (client: pg.Client) => {
    const sentAt = performance.now();
    // One round trip; every value is a number or this module's hex id, nothing to quote.
    const results = (await client.query(
      `BEGIN; SELECT seq FROM ${schema}.head FOR SHARE;
       INSERT INTO ${schema}.processes (id, backend, lease_until, seen, schema_version)
         VALUES ('${id}', pg_backend_pid(), now() + interval '${lease} milliseconds', ${host.seen()}, ${SCHEMA_VERSION})
         ON CONFLICT (id) DO UPDATE SET backend = excluded.backend, lease_until = excluded.lease_until,
           seen = greatest(${schema}.processes.seen, excluded.seen);
       DELETE FROM ${schema}.processes WHERE lease_until < now() - interval '1 hour';
       COMMIT`,
    )) as unknown as pg.QueryResult[];
    if (client !== listener || closed) return;
    leaseHead = Number(results[1]!.rows[0].seq);
    trustedUntil = sentAt + lease * TRUSTED_SHARE;
  };
  const tick = async () => {
    const client = listener;
    if (!client || closed || inFlight) return;
    inFlight = true;
    try {
      // A member that cannot apply what it was told of lets its lease run out rather than hold up the writes.
      await withTimeout(host.catchUpAnnounced(), lease / RENEWALS);
      await renewal(client);
    } catch {
      // Not renewed: the database may not answer; the lease is no longer trusted.
      trustedUntil = 0;
    } finally {
      inFlight = false;
    }
  };

  let acking = false;
  let toAck = 0;
  let ackedSelf = 0;
  const ackSql = `WITH mine AS (UPDATE ${schema}.processes SET seen = greatest(seen, $2::bigint) WHERE id = $1)
    SELECT pg_notify($3, $1 || ':' || $2::bigint)`;
  const sendAck = () => {
    if (acking || closed || toAck <= ackedSelf) return;
    acking = true;
    const seq = toAck;
    pool.query(ackSql, [id, seq, host.ackChannel]).then(
      () => {
        ackedSelf = Math.max(ackedSelf, seq);
        acking = false;
        sendAck();
      },
      () => {
        // Said again shortly; meanwhile the writers waiting for it read `seen` with the next renewal, or wait out
        // the lease.
        acking = false;
        setTimeout(sendAck, LOOK_EVERY_MS).unref();
      },
    );
  };

  const settled = (waiter: Waiter) => {
    if (waiter.pending.size) return;
    waiters.delete(waiter);
    waiter.done();
  };
  /** Ends the waits for `member` of the writes up to `seq`. */
  const drop = (member: string, seq = Number.POSITIVE_INFINITY) => {
    for (const waiter of waiters) {
      if (waiter.seq <= seq) waiter.pending.delete(member);
      settled(waiter);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let nextLook = 0;
  let looking = false;
  /** Ends the waits for members past their lease, looks at the members when it is time; then sleeps till the next. */
  const wake = () => {
    timer = undefined;
    const now = performance.now();
    for (const waiter of waiters) {
      for (const [member, until] of waiter.pending) if (until <= now) waiter.pending.delete(member);
      settled(waiter);
    }
    if (!waiters.size) return;
    if (now >= nextLook && !looking) void look();
    schedule();
  };
  const schedule = () => {
    clearTimeout(timer);
    if (!waiters.size || closed) return;
    const soonest = Math.min(...[...waiters].flatMap((waiter) => [...waiter.pending.values()]));
    const at = looking ? soonest : Math.min(soonest, nextLook);
    timer = setTimeout(wake, Math.max(0, at - performance.now()));
  };
  /** Reads the members still waited for: what they applied, and their leases as renewed since. */
  const look = async () => {
    looking = true;
    const ids = [...new Set([...waiters].flatMap((waiter) => [...waiter.pending.keys()]))];
    try {
      const { rows } = await pool.query<Member>(
        `SELECT id, seen, ${msLeft} AS ms FROM ${schema}.processes WHERE id = ANY($1)`,
        [ids],
      );
      const at = performance.now();
      const found = new Set<string>();
      for (const row of rows) {
        found.add(row.id);
        drop(row.id, Number(row.seen));
        // A lease renewed since moves the wait's end later; nothing moves it earlier (a clock that stepped).
        if (row.ms === 0) continue;
        for (const waiter of waiters) {
          const until = waiter.pending.get(row.id);
          if (until !== undefined) waiter.pending.set(row.id, Math.max(until, at + row.ms + margin));
        }
      }
      // Rows are deleted as their process closes, or an hour past their lease.
      for (const member of ids) {
        if (found.has(member)) continue;
        drop(member);
        acked.delete(member);
      }
    } catch {
      // The database does not answer: the leases as last known end the waits.
    } finally {
      looking = false;
      nextLook = performance.now() + LOOK_EVERY_MS;
      schedule();
    }
  };

  const distrust = () => {
    trustedUntil = 0;
  };
  return {
    id,
    membersSql: `SELECT id, seen, ${msLeft} AS ms FROM ${schema}.processes WHERE ${leaseRuns} AND id <> '${id}'`,
    // None while a process of an earlier version is on the schema (a rolling upgrade): it would not reload.
    horizonSql: `SELECT CASE WHEN bool_or(schema_version < ${PRUNING_VERSION}) THEN NULL
      ELSE min(seen) FILTER (WHERE ${leaseRuns}) END AS horizon FROM ${schema}.processes`,
    current: () => performance.now() < trustedUntil && host.seen() >= leaseHead,
    async renew(client) {
      listener = client;
      await renewal(client);
    },
    distrust,
    lost() {
      listener = undefined;
      distrust();
    },
    start() {
      renewing ??= setInterval(() => void tick(), lease / RENEWALS);
      renewing.unref();
    },
    applied(seen) {
      toAck = Math.max(toAck, seen);
      sendAck();
    },
    onAck(payload) {
      const [member, text] = payload.split(':');
      const seq = Number(text);
      if (!member || !Number.isSafeInteger(seq)) return;
      acked.set(member, Math.max(acked.get(member) ?? 0, seq));
      drop(member, seq);
    },
    settle(seq, members) {
      const now = performance.now();
      const pending = new Map<string, number>();
      for (const member of members) {
        if (Number(member.seen) < seq && (acked.get(member.id) ?? 0) < seq) {
          pending.set(member.id, now + member.ms + margin);
        }
      }
      if (!pending.size || closed) return Promise.resolve();
      return new Promise<void>((done) => {
        waiters.add({ seq, pending, done });
        // A look within FIRST_LOOK_MS of any write that waits.
        if (nextLook <= now || nextLook > now + FIRST_LOOK_MS) nextLook = now + FIRST_LOOK_MS;
        schedule();
      });
    },
    async close() {
      closed = true;
      distrust();
      clearInterval(renewing);
      clearTimeout(timer);
      for (const waiter of waiters) {
        waiter.pending.clear();
        settled(waiter);
      }
    },
    async leave() {
      await pool.query(`DELETE FROM ${schema}.processes WHERE id = $1`, [id]).catch(() => undefined);
    },
    async forget(member) {
      await pool.query(`DELETE FROM ${schema}.processes WHERE id = $1`, [member]);
      drop(member);
      acked.delete(member);
    },
  };
}

/** What is left of a row's lease, ms (0 once it ended). */
const msLeft = 'greatest(0, ceil(extract(epoch FROM lease_until - now()) * 1000))::int';

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}
