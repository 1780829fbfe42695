/**
 * A server tied to the process that started it (`startSandbox({ workers })`): it stops when its stdin ends, which
 * happens once that process is gone, however it ended (`process.exit`, a crash, SIGTERM, SIGKILL), so that the
 * test runner needs no signal handler of its own for the fleet not to outlive it. Opt-in, through the environment
 * variable {@link LIFELINE}: a server run by hand or by a service manager never stops because its stdin closed
 * (`< /dev/null`). Only the primary (or the only process) holds it; a fleet's workers stop with their primary.
 */

/** The environment variable: `stop`, or `stop,drop-schema` (then drop the PostgreSQL schema of `--store`). */
export const LIFELINE = 'STOREFRONT_LIFELINE';

/** The line to the parent process, held by this process's stdin. */
export interface Lifeline {
  /**
   * After this process stopped: when its stdin ended (the parent is gone) and the schema was to be dropped, drops
   * the schema `store` names (`?schema=`), which no one else will.
   */
  afterStop(store: string | undefined): Promise<void>;
}

/**
 * Holds the line when the environment asks for it: once stdin ends, this process stops as on SIGTERM (the
 * handlers of `stop-signals.ts` must be in place by the next turn of the event loop). `undefined`: not asked.
 */
export function holdLifeline(env: NodeJS.ProcessEnv = process.env): Lifeline | undefined {
  const asked = env[LIFELINE];
  if (asked !== 'stop' && asked !== 'stop,drop-schema') return undefined;
  let cut = false;
  const stop = () => {
    if (cut) return;
    cut = true;
    // Nobody reads what it prints either: a write to those pipes fails (EPIPE), which must not end the stop.
    for (const output of [process.stdout, process.stderr]) output.on('error', () => undefined);
    process.kill(process.pid, 'SIGTERM');
  };
  // An error reading stdin says as much as its end: nobody holds the other end any more.
  process.stdin.once('end', stop).once('error', stop).resume();
  return {
    async afterStop(store) {
      if (!cut || asked !== 'stop,drop-schema' || store === undefined) return;
      const url = new URL(store);
      const schema = url.searchParams.get('schema');
      if (schema === null) return;
      url.searchParams.delete('schema');
      const { dropSchema } = await import('./sandbox-schema.js');
      await dropSchema(url.href, schema).catch((error: unknown) => {
        console.error(`storefront-server: could not drop the schema "${schema}": ${(error as Error).message}`);
      });
    },
  };
}
