import { afterAll, beforeAll } from 'vitest';
import { type FreshSchema, freshSchema } from '../../../test/support/postgres-server.js';
import { createServer, type ServerOptions, type StorefrontServer } from '../../src/create-server.js';

/**
 * Two servers on one fresh PostgreSQL schema, the two processes of a fleet played in this one: created before the
 * tests of the suite that calls it (port 0, 3 products, no explorer, then `options`), closed after them, and the
 * schema dropped. `servers` is filled once they run.
 */
export function useTwoServers(options: Omit<ServerOptions, 'store' | 'port'> = {}): {
  servers: StorefrontServer[];
} {
  const servers: StorefrontServer[] = [];
  let schema: FreshSchema | undefined;
  beforeAll(async () => {
    schema = await freshSchema();
    // One after the other: the first creates and seeds the schema, the second opens it.
    for (let i = 0; i < 2; i++) {
      servers.push(await createServer({ port: 0, store: schema.url, products: 3, explorer: false, ...options }));
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await schema?.drop();
  });
  return { servers };
}
