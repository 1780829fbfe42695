/**
 * The processes on one PostgreSQL schema, and read-your-writes across them without a round trip per read.
 *
 * Each process is a member of the fleet while it holds a lease: a row of `processes` (its id, the backend of its
 * listening connection, until when the lease runs, the last write it applied), renewed on the listening
 * connection a few times per lease. A write, as it commits, lists the other members; before it is reported done
 * it waits until each has applied it (members report each write they apply: `seen` in their row and a
 * notification on the acknowledgement channel), has gone (its listening connection closed, its row deleted), or
 * until its lease ran out. A member answers reads from memory without asking the database only while its own
 * lease runs by its own clock, counted from before it asked for the renewal, so that it stops before the
 * database's copy of the lease ends, and while it has applied every write up to the renewal's. So a write
 * reported done anywhere is in the memory of every process that reads without asking; the others (a lease
 * lapsed, the listening connection down) read the write counter before each request, as `postgres.ts` does.
 *
 * A renewal takes the write lock in shared mode: it is ordered with every write, which either lists the member
 * or is already applied by the member once it has caught up with the head the renewal read.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/** How long a lease runs: what a member that stops answering (stopped, cut off) holds up the fleet's writes. */
export const LEASE_MS = 5000;
/** A member trusts its lease for this share of it, against clocks that run at slightly different rates. */
const TRUSTED_SHARE = 0.9;
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
  /** The SQL statement that lists the other members with a running lease, for a write's commit. */
  readonly membersSql: string;
  /** Whether reads may be answered from memory without reading the write counter. */
  current(): boolean;
  /** Registers or renews on `listener` (a new listening connection: at once); the lease is trusted from then on. */
  renew(listener: pg.Client): Promise<void>;
  /** The listening connection is gone: the lease is no longer trusted (writes elsewhere stop waiting for it). */
  lost(): void;
  /** Reports the writes up to `seen` applied, to the members waiting for it (coalesced). */
  applied(seen: number): void;
  /** An acknowledgement notification's payload. */
  onAck(payload: string): void;
  /** Resolves once every one of `members` applied write `seq`, went, or lost its lease. Never rejects. */
  settle(seq: number, members: readonly Member[]): Promise<void>;
  close(): Promise<void>;
}

interface Waiter {
  seq: number;
  /** Member id → when its lease ends, by this process's clock. */
  pending: Map<string, number>;
  done: () => void;
}

export function createFleet(host: FleetHost, lease = LEASE_MS): Fleet {
  const { pool, schema } = host;
  const id = randomBytes(12).toString('hex');
  /** Until when (performance.now()) the lease is trusted, and the head the renewal read. */
  let trustedUntil = 0;
  let leaseHead = Number.POSITIVE_INFINITY;
  let listener: pg.Client | undefined;
  let closed = false;
  /** Highest write reported by each member. */
  const acked = new Map<string, number>();
  const waiters = new Set<Waiter>();
  let lookTimer: NodeJS.Timeout | undefined;

  const renewal = async (client: pg.Client) => {
    const sentAt = performance.now();
    // One round trip; every value is a number or this module's hex id, nothing to quote.
    const results = (await client.query(
      `BEGIN; SELECT seq FROM ${schema}.head FOR SHARE;
       INSERT INTO ${schema}.processes (id, backend, lease_until, seen)
         VALUES ('${id}', pg_backend_pid(), now() + interval '${lease} milliseconds', ${host.seen()})
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
    if (!client || closed) return;
    try {
      // A member that cannot apply what it was told of lets its lease run out rather than hold up the writes.
      await withTimeout(host.catchUpAnnounced(), lease / RENEWALS);
      await renewal(client);
    } catch {
      // The lease runs out; the listening connection's loss, if that is the cause, is handled where it is seen.
    }
  };
  const renewing = setInterval(() => void tick(), lease / RENEWALS);
  renewing.unref();

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
        // The writers waiting for it ask the database, or wait for the lease; the next write applied says it again.
        acking = false;
      },
    );
  };

  const finish = (waiter: Waiter) => {
    waiters.delete(waiter);
    waiter.done();
  };
  const drop = (member: string, seq = Number.POSITIVE_INFINITY) => {
    for (const waiter of waiters) {
      if (waiter.seq <= seq) waiter.pending.delete(member);
      if (!waiter.pending.size) finish(waiter);
    }
  };
  /** Asks the database about the members still waited for; ends the waits for those gone or past their lease. */
  const look = async () => {
    lookTimer = undefined;
    const now = performance.now();
    for (const waiter of waiters) {
      for (const [member, until] of waiter.pending) if (until <= now) waiter.pending.delete(member);
      if (!waiter.pending.size) finish(waiter);
    }
    const ids = [...new Set([...waiters].flatMap((waiter) => [...waiter.pending.keys()]))];
    if (!ids.length) return;
    try {
      const { rows } = await pool.query<{ id: string; seen: string; ms: number; alive: boolean }>(
        `SELECT p.id, p.seen, greatest(0, ceil(extract(epoch FROM p.lease_until - now()) * 1000))::int AS ms,
           EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = p.backend) AS alive
         FROM ${schema}.processes p WHERE p.id = ANY($1)`,
        [ids],
      );
      const at = performance.now();
      const found = new Set<string>();
      const dead: string[] = [];
      for (const row of rows) {
        found.add(row.id);
        if (!row.alive || row.ms === 0) {
          if (!row.alive) dead.push(row.id);
          drop(row.id);
          continue;
        }
        drop(row.id, Number(row.seen));
        for (const waiter of waiters) if (waiter.pending.has(row.id)) waiter.pending.set(row.id, at + row.ms);
      }
      for (const member of ids) if (!found.has(member)) drop(member);
      // Killed: its connection is closed, so it reads nothing from memory any more; later writes need not look.
      if (dead.length) await pool.query(`DELETE FROM ${schema}.processes WHERE id = ANY($1)`, [dead]);
    } catch {
      // The database does not answer: the leases as last known end the waits.
    }
    schedule(LOOK_EVERY_MS);
  };
  const schedule = (ms: number) => {
    if (lookTimer || !waiters.size) return;
    const soonest = Math.min(...[...waiters].flatMap((waiter) => [...waiter.pending.values()]));
    lookTimer = setTimeout(() => void look(), Math.max(0, Math.min(ms, soonest - performance.now())));
  };

  return {
    membersSql: `SELECT id, seen, greatest(0, ceil(extract(epoch FROM lease_until - now()) * 1000))::int AS ms
      FROM ${schema}.processes WHERE lease_until > now() AND id <> '${id}'`,
    current: () => performance.now() < trustedUntil && host.seen() >= leaseHead,
    async renew(client) {
      listener = client;
      await renewal(client);
    },
    lost() {
      listener = undefined;
      trustedUntil = 0;
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
        if (Number(member.seen) < seq && (acked.get(member.id) ?? 0) < seq) pending.set(member.id, now + member.ms);
      }
      if (!pending.size || closed) return Promise.resolve();
      return new Promise<void>((done) => {
        waiters.add({ seq, pending, done });
        schedule(FIRST_LOOK_MS);
      });
    },
    async close() {
      closed = true;
      trustedUntil = 0;
      clearInterval(renewing);
      clearTimeout(lookTimer);
      for (const waiter of waiters) finish(waiter);
      await pool.query(`DELETE FROM ${schema}.processes WHERE id = $1`, [id]).catch(() => undefined);
    },
  };
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<void>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
