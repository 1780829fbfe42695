/**
 * Loopback ports nothing listens on, for servers the tests start as processes (Redis, PostgreSQL), which take a
 * port number rather than port 0.
 */
import { createServer, type Server } from 'node:net';

/** Listens on a port the system hands out. */
function probe(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** `count` different ports the system handed out, then freed (held together while picked, so all differ). */
export async function freePorts(count: number): Promise<number[]> {
  const probes = await Promise.all(Array.from({ length: count }, probe));
  const ports = probes.map((server) => (server.address() as { port: number }).port);
  await Promise.all(probes.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** One port the system handed out, then freed. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/** Whether `error` says a port was taken: Node's EADDRINUSE, or a server's own words for it. */
export function addressInUse(error: unknown): boolean {
  return (error as { code?: string }).code === 'EADDRINUSE' || /address already in use/i.test(String(error));
}

/**
 * Starts a server with `start` on `count` free ports; when it fails because one was taken in the meantime (between
 * `freePorts` freeing it and the server binding it, another program can take it), again on new ones, up to 5 times.
 * `start` must reject with an error that says so (see {@link addressInUse}), e.g. with the server's output.
 */
export async function onFreePorts<T>(count: number, start: (ports: number[]) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePorts(count));
    } catch (error) {
      if (attempt === 5 || !addressInUse(error)) throw error;
    }
  }
}
