import { hostname } from 'node:os';
import { StoreError } from '../errors.js';

/** Who holds a data lock, as its lock file says. */
export interface LockHolder {
  /** Its process id. */
  pid: number;
  /** Where the holder runs; a process on another host (a shared disk) cannot be checked, so it counts as alive. */
  host: string;
  /** When it took the lock, ISO 8601. */
  since: string;
  /** When the process started, in clock ticks after the machine's boot (Linux's `/proc/<pid>/stat`), if known. */
  started?: string;
}

// Apart from `errors.ts`, which the in-memory store shares in browsers: this one needs Node.

/**
 * The data is open in another process, or already in this one. Two servers on the same files would each
 * acknowledge writes that the other then overwrites, so the second one refuses to open them. `path` is the lock
 * file, `holder` what it says.
 */
export class StoreLockedError extends StoreError {
  constructor(
    /** The lock file. */
    readonly path: string,
    readonly holder: LockHolder,
  ) {
    const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
    const who = holder.pid === process.pid ? 'this process' : `process ${holder.pid}${where}`;
    super(
      `${path}: the data is in use by ${who} since ${holder.since}, and two servers on the same files would lose` +
        ` each other's writes. Stop that server, or open other data; if that process is not a server on this data,` +
        ` delete ${path}.`,
    );
    this.name = 'StoreLockedError';
  }
}
