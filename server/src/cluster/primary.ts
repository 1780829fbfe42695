/**
 * `storefront-server --workers N`: the primary process of a node:cluster fleet. It runs no server itself: it
 * starts the first worker alone (which migrates the database and seeds it when empty, then prints the banner),
 * then the others on the same port, and starts a new worker in place of one that exits unasked (a crash, a
 * `kill -9`; when it waits first, `restart-delay.ts` says), so that the fleet keeps its size while the others go
 * on answering. The workers share one PostgreSQL database, which enforces what must hold across them.
 *
 * The listening socket is the fleet's, kept by the primary, not node:cluster's: node's primary (round-robin or
 * `SCHED_NONE` alike) closes a listening handle when the last worker that uses it exits, and the kernel's queue of
 * connections goes with it, so that with every worker dead at once (a poison request, an OOM kill), or the only
 * serving one dead while its sibling starts, new connections were refused. Here the first worker binds the port
 * itself and hands the socket to the primary, which keeps it open without ever accepting on it (a libuv handle
 * nobody listens on in this process) and hands it to each later worker. A connection no worker has accepted waits
 * in the kernel's queue (its backlog, 511) for the next live worker, whichever it is; a worker's death loses only
 * the connections it had accepted. The workers accept from that one queue: the kernel, not the primary, spreads
 * the connections (not evenly), and no connection ever passes through the primary, as round-robin's do (a worker
 * killed with handoffs in flight left them open and unread in the primary for good).
 */
import cluster, { type Worker } from 'node:cluster';
import { onStopSignal } from '../stop-signals.js';
import { FIRST_RETRY_MS, MAX_RETRY_MS, restartDelay } from './restart-delay.js';
import { ASK_SOCKET, LISTENING, SOCKET, type SocketHandle, WORKER_NUMBER } from './worker.js';

/** Options of {@link runPrimary}. */
export interface PrimaryOptions {
  workers: number;
  /** The workers' arguments after the first's: the command's less what only one process may do (`--reset`). */
  laterArgs: string[];
  /** No line about workers starting and exiting (a start that fails is still reported). */
  quiet: boolean;
  /** The end of the line that says the fleet stopped: what holds once it has (`the port is free`). */
  stoppedLine: string;
}

/** Runs the fleet until SIGINT or SIGTERM; resolves with the exit code (1 when it could not start). */
export async function runPrimary(options: PrimaryOptions): Promise<number> {
  const fleet = new Fleet(options);
  if (!(await fleet.start())) return 1;
  return fleet.stopped;
}

/** One worker, and whether it serves yet (see `LISTENING`). */
interface Member {
  serving: boolean;
  /** Resolves with true once it serves, with false if it exits first. */
  started: Promise<boolean>;
}

/** The workers of one primary: started, replaced when they exit unasked, stopped on a signal. */
class Fleet {
  /** Resolves with the exit code once the fleet stopped. */
  readonly stopped: Promise<number>;
  readonly #options: PrimaryOptions;
  readonly #members = new Map<Worker, Member>();
  /** The starts scheduled after a wait (see `restart-delay.ts`). */
  readonly #retries = new Set<NodeJS.Timeout>();
  #numbered = 0;
  /** Replacements in a row that exited before they served. */
  #failedStarts = 0;
  #running = false;
  #stopping = false;
  /** The fleet's listening socket, once the first worker has bound it (see above). */
  #socket: SocketHandle | undefined;
  #finish!: (code: number) => void;

  constructor(options: PrimaryOptions) {
    this.#options = options;
    this.stopped = new Promise((resolve) => {
      this.#finish = resolve;
    });
  }

  /** Starts the workers, then replaces them until a signal; false (all stopped) if one failed to start. */
  async start(): Promise<boolean> {
    // From the start: Ctrl-C while the first worker migrates stops the fleet as it would later.
    onStopSignal(this.#stop);
    // The first alone: two processes creating one schema's data would both seed it.
    const first = this.#fork();
    const firstServes = await this.#members.get(first)!.started;
    if (this.#stopping) return true;
    if (!firstServes) return false;
    const rest = Array.from({ length: this.#options.workers - 1 }, () => this.#fork());
    const restServe = !(await Promise.all(rest.map((worker) => this.#members.get(worker)!.started))).includes(false);
    if (this.#stopping) return true;
    if (!restServe) {
      await this.#stopAll();
      return false;
    }
    this.#say(`${this.#options.workers} workers listening (pids ${[first, ...rest].map(pidOf).join(', ')})`);
    this.#running = true;
    return true;
  }

  #fork(): Worker {
    const later = ++this.#numbered > 1;
    if (later) cluster.setupPrimary({ args: this.#options.laterArgs });
    // A reset asked for in the environment is the first worker's alone, as `--reset` is.
    const env = { [WORKER_NUMBER]: String(this.#numbered), ...(later ? { STOREFRONT_RESET: 'false' } : {}) };
    const worker = cluster.fork(env);
    let started!: (serves: boolean) => void;
    const member: Member = { serving: false, started: new Promise((resolve) => (started = resolve)) };
    this.#members.set(worker, member);
    worker.on('message', (message: { type?: string }, handle: unknown) => {
      if (message?.type === SOCKET && handle) this.#socket ??= handle as SocketHandle;
      if (message?.type === ASK_SOCKET && this.#socket) worker.send({ type: SOCKET }, this.#socket as never);
      if (message?.type !== LISTENING || member.serving) return;
      member.serving = true;
      started(true);
      if (this.#running) this.#replaced(worker);
    });
    worker.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      this.#members.delete(worker);
      started(false);
      if (this.#running && !this.#stopping) this.#replace(worker, member.serving, signal ?? `code ${code}`);
    });
    return worker;
  }

  /** A worker exited unasked: another starts in its place, at once or after a wait. */
  #replace(worker: Worker, served: boolean, how: string): void {
    if (served) {
      this.#say(`worker ${pidOf(worker)} exited (${how}); starting another`);
    } else if (++this.#failedStarts === 1) {
      // Once for the whole run of failures: the worker's own error says why, and the next ones would repeat it.
      console.error(
        `storefront-server: worker ${pidOf(worker)} exited (${how}) before it served; starting another in ` +
          `${FIRST_RETRY_MS / 1000} s, then waiting twice as long each time up to ${MAX_RETRY_MS / 1000} s, until one serves`,
      );
    }
    const delay = restartDelay(this.#failedStarts);
    if (delay === 0) {
      this.#fork();
      return;
    }
    const retry = setTimeout(() => {
      this.#retries.delete(retry);
      this.#fork();
    }, delay);
    this.#retries.add(retry);
  }

  /** A replacement serves: the count of failed starts begins again. */
  #replaced(worker: Worker): void {
    const after = this.#failedStarts === 0 ? '' : ` after ${this.#failedStarts + 1} starts`;
    this.#failedStarts = 0;
    const serving = [...this.#members.values()].filter((member) => member.serving).length;
    this.#say(`worker ${pidOf(worker)} listening${after} (${serving} of ${this.#options.workers} workers)`);
  }

  readonly #stop = (signal: NodeJS.Signals) => {
    this.#say(`${signal}: stopping the workers (each finishes its requests and writes)…`);
    void this.#stopAll().then(() => {
      this.#say(`Stopped: ${this.#options.stoppedLine}.`);
      this.#finish(0);
    });
  };

  /** Stops every worker (SIGTERM: each finishes its requests) and the starts still to come. */
  async #stopAll(): Promise<void> {
    this.#stopping = true;
    for (const retry of this.#retries) clearTimeout(retry);
    this.#retries.clear();
    // New connections are refused from now on, rather than queued for workers that will not come; the workers'
    // own copies keep the socket until each has closed its server.
    this.#socket?.close();
    this.#socket = undefined;
    const alive = [...this.#members.keys()].filter((worker) => !worker.isDead());
    await Promise.all(
      alive.map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once('exit', () => resolve());
            worker.process.kill('SIGTERM');
          }),
      ),
    );
  }

  #say(line: string): void {
    if (!this.#options.quiet) console.log(`storefront-server: ${line}`);
  }
}

const pidOf = (worker: Worker) => worker.process.pid;
