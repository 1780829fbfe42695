/**
 * `storefront-server --workers N`: the primary process of a node:cluster fleet. It runs no server itself: it
 * starts the first worker alone (which migrates the database and seeds it when empty, then prints the banner),
 * then the others on the same port, and starts a new worker in place of one that exits unasked (a crash, a
 * `kill -9`; when it waits first, `restart-delay.ts` says), so that the fleet keeps its size while the others go
 * on answering. The workers share one PostgreSQL database, which enforces what must hold across them.
 */
import cluster, { type Worker } from 'node:cluster';
import { FIRST_RETRY_MS, MAX_RETRY_MS, restartDelay } from './restart-delay.js';
import { LISTENING, WORKER_NUMBER } from './worker.js';

/** Options of {@link runPrimary}. */
export interface PrimaryOptions {
  workers: number;
  /** The workers' arguments after the first's: the command's less what only one process may do (`--reset`). */
  laterArgs: string[];
  /** No line about workers starting and exiting (a start that fails is still reported). */
  quiet: boolean;
}

/** Runs the fleet until SIGINT or SIGTERM; resolves with the exit code (1 when it could not start). */
export async function runPrimary(options: PrimaryOptions): Promise<number> {
  shareTheListeningSocket();
  const fleet = new Fleet(options);
  if (!(await fleet.start())) return 1;
  return fleet.stopped;
}

/**
 * Why not node's default on Linux, round-robin (`SCHED_RR`): there the primary accepts every connection itself
 * and hands it to a worker over IPC, keeping its own copy open until the worker acknowledges it
 * (`RoundRobinHandle.prototype.handoff` in node's lib/internal/cluster/round_robin_handle.js). A worker killed
 * with handoffs in flight never acknowledges them, and nothing else closes the primary's copy or hands it to
 * another worker: the connection stays open and unread in the primary for good (seen: a request in Recv-Q for
 * over ten minutes). Until the primary learns of the exit, the dead worker also stays among the idle workers and
 * is handed new connections, which go the same way. With `SCHED_NONE` the primary binds the socket and gives it
 * to every worker, and the workers accept from the kernel's one queue: a connection that no worker has accepted
 * waits there for a live one, so a worker's death loses only the connections it had accepted, and the others
 * take the next ones at once. The price: the kernel does not share connections evenly between the workers.
 */
function shareTheListeningSocket(): void {
  // Read when the first worker is forked; set here over NODE_CLUSTER_SCHED_POLICY, since the promise rests on it.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
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
  #finish!: (code: number) => void;

  constructor(options: PrimaryOptions) {
    this.#options = options;
    this.stopped = new Promise((resolve) => {
      this.#finish = resolve;
    });
  }

  /** Starts the workers, then replaces them until a signal; false (all stopped) if one failed to start. */
  async start(): Promise<boolean> {
    // The first alone: two processes creating one schema's data would both seed it.
    const first = this.#fork();
    if (!(await this.#members.get(first)!.started)) return false;
    const rest = Array.from({ length: this.#options.workers - 1 }, () => this.#fork());
    if ((await Promise.all(rest.map((worker) => this.#members.get(worker)!.started))).includes(false)) {
      await this.#stopAll();
      return false;
    }
    this.#say(`${this.#options.workers} workers listening (pids ${[first, ...rest].map(pidOf).join(', ')})`);
    this.#running = true;
    process.once('SIGINT', this.#stop);
    process.once('SIGTERM', this.#stop);
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
    worker.on('message', (message: { type?: string }) => {
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
    // A second signal while stopping gives up waiting.
    process.once(signal, () => this.#finish(1));
    this.#say(`${signal}: stopping the workers…`);
    void this.#stopAll().then(() => this.#finish(0));
  };

  /** Stops every worker (SIGTERM: each finishes its requests) and the starts still to come. */
  async #stopAll(): Promise<void> {
    this.#stopping = true;
    for (const retry of this.#retries) clearTimeout(retry);
    this.#retries.clear();
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
