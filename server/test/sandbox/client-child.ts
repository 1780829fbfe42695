/**
 * Another process steering a sandbox through `connectSandbox` (argv: the control URL and token): takes a
 * snapshot, moves the clock, reads the journal, and prints what it saw as one JSON line.
 */
import { connectSandbox } from '../../src/index.js';

const [url, token] = process.argv.slice(2) as [string, string];
const sandbox = connectSandbox({ url, token });
const snapshot = await sandbox.snapshots.take('from-child');
const moved = await sandbox.clock.set('2031-05-01T00:00:00Z');
const journal = await sandbox.journal.entries({ path: '/v1' });
let refused: number | undefined;
try {
  await connectSandbox({ url, token: 'not-the-token-0123456789' }).reset();
} catch (error) {
  refused = (error as { status: number }).status;
}
console.log(
  JSON.stringify({ snapshot: snapshot.name, year: new Date(moved.epochMs).getUTCFullYear(), journal, refused }),
);
