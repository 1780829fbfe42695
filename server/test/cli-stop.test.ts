/**
 * How `storefront-server` stops (issue 47): Ctrl-C under `npm start` signals the server twice (the terminal's
 * SIGINT to the process group, and npm's forward of it), and a SIGTERM may follow a SIGINT. Whatever the signals, the
 * server stops once, finishing what is in flight, says so once, and leaves no lock beside the data.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli } from './helpers/cli-process.js';
import { heldRequest } from './helpers/held-request.js';
import { useTempDir } from './helpers/temp-dir.js';

const tempDir = useTempDir();
const cli = useCli();
const DEMO = { clientId: 'stop-app', clientSecret: 'stop-secret-0123456789' };

describe('storefront-server stopped by signals', () => {
  it.each([
    ['SIGINT', 'SIGINT'],
    ['SIGINT', 'SIGTERM'],
  ] as const)(
    'stops once on %s then %s to its process group, says so once, and leaves no lock',
    async (first, second) => {
      const dir = await tempDir();
      const server = cli(
        [
          ...['--port', '0', '--data', join(dir, 'db.json'), '--products', '5'],
          ...['--demo-client-id', DEMO.clientId, '--demo-client-secret', DEMO.clientSecret],
        ],
        { detached: true },
      );
      const origin = (await server.waitFor(/listening on (http:\/\/\S+)/))[1]!;
      await server.waitFor(/curl -s -H .*\n/);
      // In flight while the signals arrive: the stop waits for it.
      const { answered } = await heldRequest(origin, DEMO, 2);
      process.kill(-server.child.pid!, first);
      // The second once the first is being handled: two signals pending at once are one to the kernel.
      await server.waitFor(/finishing in-flight requests/);
      process.kill(-server.child.pid!, second);
      expect(await server.exited).toBe(0);
      expect(await answered).toBe(200);
      const out = server.stdout();
      expect(out.match(/finishing in-flight/g)).toHaveLength(1);
      expect(out.match(/^Stopped: .*$/gm)).toEqual(['Stopped: writes are on disk and the port is free.']);
      expect((await readdir(dir)).filter((name) => name.includes('lock'))).toEqual([]);
    },
  );
});
