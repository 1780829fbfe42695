import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addressInUse, freePorts, onFreePorts } from './free-port.js';

const open: Server[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Listens on `port`; rejects with Node's EADDRINUSE when it is taken. */
function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      open.push(server);
      resolve(server);
    });
  });
}

describe('free ports', () => {
  it('are different from each other, and free', async () => {
    const ports = await freePorts(3);
    expect(new Set(ports).size).toBe(3);
    await Promise.all(ports.map(listen));
  });

  it('are picked again when another program took one before the server bound it', async () => {
    const tried: number[][] = [];
    const server = await onFreePorts(2, async (ports) => {
      tried.push(ports);
      // The first time, another program takes the second port first.
      if (tried.length === 1) await listen(ports[1]!);
      return Promise.all(ports.map(listen));
    });
    expect(tried).toHaveLength(2);
    expect(server.map((s) => (s.address() as { port: number }).port)).toEqual(tried[1]);
  });

  it("count a server's own words for a taken port as one (redis-server's, which exits)", () => {
    const redis = `redis-server exited (1) before it was ready:
4971:M 01 Dec 2026 21:19:02.428 # Warning: Could not create server TCP listening socket 127.0.0.1:41507: bind: Address already in use
4971:M 01 Dec 2026 21:19:02.428 # Failed listening on port 41507 (cluster), aborting.`;
    expect(addressInUse(new Error(redis))).toBe(true);
    expect(addressInUse(new Error('redis-server exited (1) before it was ready: Bad directive'))).toBe(false);
  });

  it('are not picked again for another failure, which is thrown as it is', async () => {
    let attempts = 0;
    const failing = onFreePorts(1, async () => {
      attempts++;
      throw new Error('no such binary');
    });
    await expect(failing).rejects.toThrow('no such binary');
    expect(attempts).toBe(1);
  });
});
