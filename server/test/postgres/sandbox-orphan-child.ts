/**
 * A test runner that starts a fleet (argv: the database's URL) and is then ended by a signal, never stopping the
 * sandbox: prints the sandbox's origin as one JSON line, then waits.
 */
import { startSandbox } from '../../src/index.js';

const sandbox = await startSandbox({ store: process.argv[2]!, workers: 2, products: 2 });
console.log(JSON.stringify({ origin: sandbox.origin }));
setInterval(() => undefined, 60_000);
