/**
 * What some suites need from the machine beyond Node (redis-server, a terminal through `script`, Chromium, the
 * right to mount a tmpfs), and the one way a suite skips without it: loudly, and never under CI, which must run
 * every test. A skip that says nothing lets a missing package pass for a green run.
 */
import { underCi } from './ci.js';

/** A program, file or permission some tests need, which the machine may lack. */
export interface Requirement {
  /** What the messages call it: `redis-server`. */
  readonly name: string;
  /** How to get it. */
  readonly remedy: string;
  /** Whether this machine has it (probed on the first call only). */
  available(): boolean;
  /** Why not, when the probe threw: its error's message (a failed command's standard error). */
  readonly reason: string | undefined;
}

/** A requirement whose `probe` says whether the machine meets it; a probe that throws says no, and why. */
export function requirement(name: string, remedy: string, probe: () => boolean): Requirement {
  let met: boolean | undefined;
  let reason: string | undefined;
  return {
    name,
    remedy,
    get reason() {
      return reason;
    },
    available() {
      if (met === undefined) {
        try {
          met = probe();
        } catch (error) {
          met = false;
          const { stderr, message } = error as { stderr?: Buffer | string; message?: string };
          reason = (stderr?.toString() || message || String(error)).trim();
        }
      }
      return met;
    },
  };
}

/**
 * Whether `tests` (what the skip message calls them: `The fleet tests`) must be skipped for want of `need`, to be
 * given to `describe.skipIf` or `it.skipIf`. When they must, says so on standard error; under CI (see
 * {@link underCi}) throws instead, so that the run fails with the reason. `ci`: whether this run is CI's.
 */
export function skipWithout(need: Requirement, tests: string, ci = underCi): boolean {
  if (need.available()) return false;
  const missing = `this machine lacks ${need.name}${need.reason ? ` (${need.reason})` : ''}. ${need.remedy}`;
  if (ci) throw new Error(`${tests} cannot run, and CI runs every test: ${missing}`);
  console.warn(`\n*** ${tests}: SKIPPED, ${missing}\n`);
  return true;
}
