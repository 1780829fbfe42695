/**
 * `storefront-server --workers N`: the primary process of a node:cluster fleet. It runs no server itself: it
 * starts the first worker alone (which migrates the database and seeds it when empty, then prints the banner),
 * then the others on the same port, and starts a new worker in place of one that exits unasked (a crash, a
 * `kill -9`), so that the fleet keeps its size while the others go on answering. The workers share one
 * PostgreSQL database; what must hold across them the database enforces (see `store/postgres.ts`). A worker that
 * exits is reported to the others, whose writes then stop waiting for it (see `store/postgres-fleet.ts`).
 */
import cluster, { type Worker } from 'node:cluster';
import type { PostgresStore } from './store/postgres/postgres.js';
import type { Store } from './store/types.js';

/** The environment variable that tells a worker its number (1 for the first). */
export const WORKER_NUMBER = 'STOREFRONT_CLUSTER_WORKER';

/** What a worker sends the primary once it listens, with its store's process id. */
const LISTENING = 'storefront:listening';
/** What the primary sends the workers when one exited: its process id, for their stores to forget. */
const EXITED = 'storefront:exited';

interface Message {
  type?: string;
  processId?: string;
}

/** What a store shared by the workers adds (see `PostgresStore`). */
type FleetMember = Store & Partial<Pick<PostgresStore, 'processId' | 'forgetProcess'>>;

/** A worker that dies within this long of its start counts as failing to start. */
const EARLY_EXIT_MS = 5000;
/** Starts failing in a row before the primary gives up (bad data, a database refusing connections). */
const MAX_EARLY_EXITS = 5;

/** Options of {@link runPrimary}. */
export interface PrimaryOptions {
  workers: number;
  /** The workers' arguments after the first's: the command's less what only one process may do (`--reset`). */
  laterArgs: string[];
  /** No line about workers starting and exiting. */
  quiet: boolean;
}

/**
 * Tells the primary that this worker listens, and has its store forget the workers that exit (nothing outside a
 * cluster).
 */
export function reportListening(shared: Store): void {
  if (!cluster.isWorker) return;
  const store: FleetMember = shared;
  process.on('message', (message: Message) => {
    if (message?.type !== EXITED || !message.processId) return;
    // Not forgotten: the others wait for its lease to end, as for a process on another host.
    store.forgetProcess?.(message.processId).catch(() => undefined);
  });
  process.send?.({ type: LISTENING, processId: store.processId });
}

/** Whether this process prints the banner: the only one, or a fleet's first worker. */
export function isFirstProcess(): boolean {
  return !cluster.isWorker || process.env[WORKER_NUMBER] === '1';
}

/** Runs the fleet until SIGINT or SIGTERM; resolves with the exit code. */
export async function runPrimary({ workers, laterArgs, quiet }: PrimaryOptions): Promise<number> {
  const say = (line: string) => {
    if (!quiet) console.log(`storefront-server: ${line}`);
  };
  let stopping = false;
  let earlyExits = 0;
  let numbered = 0;
  const started = new Map<Worker, number>();
  /** The store's process id of each worker that listens. */
  const processIds = new Map<Worker, string>();

  const fork = (later: boolean): Worker => {
    numbered++;
    if (later) cluster.setupPrimary({ args: laterArgs });
    // A reset asked for in the environment is the first worker's alone, as `--reset` is.
    const env = { [WORKER_NUMBER]: String(numbered), ...(later ? { STOREFRONT_RESET: 'false' } : {}) };
    const worker = cluster.fork(env);
    started.set(worker, Date.now());
    return worker;
  };
  const listening = (worker: Worker) =>
    new Promise<boolean>((resolve) => {
      const onMessage = (message: Message) => {
        if (message?.type !== LISTENING) return;
        if (message.processId) processIds.set(worker, message.processId);
        worker.off('exit', onExit);
        resolve(true);
      };
      const onExit = () => {
        worker.off('message', onMessage);
        resolve(false);
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
    });

  // The first alone: two processes creating one schema's data would both seed it.
  const first = fork(false);
  if (!(await listening(first))) return 1;
  const rest = Array.from({ length: workers - 1 }, () => fork(true));
  const ready = await Promise.all(rest.map(listening));
  if (ready.includes(false)) {
    await stopAll();
    return 1;
  }
  say(`${workers} workers listening (pids ${[first, ...rest].map((w) => w.process.pid).join(', ')})`);

  let done!: (code: number) => void;
  const finished = new Promise<number>((resolve) => {
    done = resolve;
  });
  cluster.on('exit', (worker, code, signal) => {
    const since = started.get(worker) ?? 0;
    started.delete(worker);
    const gone = processIds.get(worker);
    processIds.delete(worker);
    if (gone) {
      for (const other of started.keys()) if (!other.isDead()) other.send({ type: EXITED, processId: gone });
    }
    if (stopping) {
      if (started.size === 0) done(0);
      return;
    }
    earlyExits = Date.now() - since < EARLY_EXIT_MS ? earlyExits + 1 : 0;
    if (earlyExits >= MAX_EARLY_EXITS) {
      console.error(`storefront-server: ${MAX_EARLY_EXITS} workers in a row exited as they started; stopping`);
      void stopAll().then(() => done(1));
      return;
    }
    const replacement = fork(true);
    say(
      `worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); worker ${replacement.process.pid} replaces it`,
    );
  });

  function stopAll(): Promise<void> {
    stopping = true;
    const alive = [...started.keys()].filter((worker) => !worker.isDead());
    return Promise.all(
      alive.map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once('exit', () => resolve());
            worker.process.kill('SIGTERM');
          }),
      ),
    ).then(() => undefined);
  }
  const stop = (signal: NodeJS.Signals) => {
    // A second signal while stopping gives up waiting.
    process.once(signal, () => done(1));
    say(`${signal}: stopping the workers…`);
    void stopAll().then(() => done(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return finished;
}
