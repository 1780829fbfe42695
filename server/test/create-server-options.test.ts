/** `createServer`'s `data` option takes paths only: a database URL there names the `store` option (issue 47). */
import { expect, it } from 'vitest';
import { createServer } from '../src/create-server.js';

it.each(['postgres://user:hunter2@127.0.0.1:1/db', 'postgresql://user:hunter2@127.0.0.1:1/db?schema=x'])(
  'refuses a PostgreSQL URL as data with a TypeError naming the store option, without its password: %s',
  async (url) => {
    const started = createServer({ port: 0, data: url });
    await expect(started).rejects.toThrow(TypeError);
    await expect(started).rejects.toThrow(/store/);
    await expect(started).rejects.not.toThrow(/hunter2/);
  },
);
