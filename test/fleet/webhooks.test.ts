/**
 * Receiving webhooks in a fleet of app instances (issue 46): two instances of an app built with
 * `createWebhookHandler`, each behind its own `storefront-server listen` (the tunnel-free receipt a developer runs
 * beside each instance), so that every event reaches both; a Redis store the two share drops the duplicates. Over a
 * run of 200 writes, every event is handled exactly once across the fleet.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type StorefrontServer } from '@storefront-platform/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../../server/test/helpers/cli-process.js';
import { bundleForNode } from '../support/node-bundle.js';
import { REDIS_SERVER, type RedisServer, startRedisServer } from '../support/redis-server.js';
import { skipWithout } from '../support/requirement.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const WRITES = 200;

const available = !skipWithout(REDIS_SERVER, 'The webhook fleet test');

let server: StorefrontServer;
let redis: RedisServer;
/** webhook-app.ts, bundled as the fleet's workers are. */
let app: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (!available) return;
  server = await createServer({ port: 0, products: 12 });
  redis = await startRedisServer();
  app = await bundleForNode(new URL('./webhook-app.ts', import.meta.url));
});
afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await server?.close();
  await redis?.stop();
});

/** Lines a child prints, as they come. */
function output(child: ChildProcess) {
  let text = '';
  const waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    text += chunk;
    for (const waiter of [...waiters]) {
      const match = text.match(waiter.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  });
  return {
    text: () => text,
    waitFor: (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve) => {
        const match = text.match(pattern);
        if (match) resolve(match);
        else waiters.push({ pattern, resolve });
      }),
  };
}

async function startApp() {
  const child = spawn(process.execPath, [app], {
    env: { ...process.env, WEBHOOK_SECRET: SECRET, REDIS_URL: redis.url, PREFIX: `fleet-${process.pid}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const out = output(child);
  const [, url] = await out.waitFor(/listening (\S+)\n/);
  return { url: url!, handled: () => [...out.text().matchAll(/handled (\S+)\n/g)].map((m) => m[1]!) };
}

describe.skipIf(!available)('two app instances behind storefront-server listen, deduplicating through Redis', () => {
  it(`handle every event of ${WRITES} writes exactly once`, async () => {
    const { clientId, clientSecret } = server.credentials!;
    const apps = await Promise.all([startApp(), startApp()]);
    const listens = apps.map((app) => {
      const listen = startCli([
        'listen',
        '--server',
        server.origin,
        '--forward-to',
        app.url,
        `--client-id=${clientId}`,
        // Joined: a random secret may begin with a dash.
        `--client-secret=${clientSecret}`,
        '--secret',
        SECRET,
        '--events',
        'theme.updated',
      ]);
      children.push(listen.child);
      return listen;
    });
    await Promise.all(listens.map((listen) => listen.waitFor(/Ready: forwarding/)));

    const token = await fetch(`${server.origin}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&scope=admin',
    }).then((answer) => answer.json() as Promise<{ access_token: string }>);
    const headers = { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' };
    const started = Date.now();
    for (let n = 0; n < WRITES; n++) {
      const answer = await fetch(`${server.baseUrl}/themes/1`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ title: `Fleet ${n}` }),
      });
      expect(answer.status).toBe(200);
    }
    const written = server.store.all('events').filter((event) => event.type === 'theme.updated');
    expect(written).toHaveLength(WRITES);

    const handled = () => apps.flatMap((app) => app.handled());
    // Both listens forward every event: each app receives all of them, and Redis lets each through once.
    const forwarded = () => listens.map((listen) => listen.stdout().match(/→ 204/g)?.length ?? 0);
    const deadline = Date.now() + 60_000;
    while ((new Set(handled()).size < WRITES || forwarded().some((n) => n < WRITES)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(forwarded()).toEqual([WRITES, WRITES]);
    const ids = handled();
    console.log(
      `webhook fleet: ${WRITES} writes → ${written.length} events; handled ${ids.length} times ` +
        `(${apps.map((app) => app.handled().length).join(' + ')}), ${new Set(ids).size} distinct, in ${Date.now() - started} ms`,
    );
    expect(new Set(ids)).toEqual(new Set(written.map((event) => event.public_id)));
    expect(ids).toHaveLength(WRITES);
  }, 120_000);
});
