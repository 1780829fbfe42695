/**
 * The control API's twins of the mock's token, event and webhook helpers, through the typed client over real HTTP (a server on its in-memory data)
 * (see twin-scenarios.ts), and what they answer bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { connectSandbox, type SandboxClient, SandboxError } from '../../src/index.js';
import { type TwinDoor, twinScenarios } from './twin-scenarios.js';

let server: StorefrontServer;
let control: SandboxClient;
beforeAll(async () => {
  server = await createServer({
    port: 0,
    products: 3,
    control: true,
    explorer: false,
  });
  control = connectSandbox(server.control!);
});
afterAll(() => server.close());

const door = (): TwinDoor => ({
  issueToken: (options) => control.issueToken(options),
  expireToken: (token) => control.expireToken(token),
  trigger: (type, options) => control.trigger(type, options),
  deliveries: () => control.webhooks.deliveries(),
  drain: () => control.webhooks.drain(),
  fetch: (path, init) => fetch(`${server.origin}${path}`, init),
  shopId: () => server.store.all('shops')[0]!.id,
  now: async () => (await control.clock.now()).epochMs,
});

describe('the token, event and webhook controls over HTTP', () => {
  twinScenarios(door);

  it('answers bad input with a 400 (or a 404 for a token never issued) that says what is wrong', async () => {
    const { url, token } = server.control!;
    const post = async (path: string, body: string) => {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      return [response.status, ((await response.json()) as { message: string }).message] as const;
    };
    const cases: [string, string, number, RegExp][] = [
      ['/tokens', '{"scope":"root"}', 400, /"scope" is one of admin, public/],
      ['/tokens', '{}', 400, /"scope"/],
      ['/tokens', '{"scope":"admin","user":42}', 400, /"user" is a login/],
      ['/tokens', '{"scope":"admin","ttl":5}', 400, /no field "ttl"/],
      ['/tokens', 'not json', 400, /must be JSON/],
      ['/tokens/expire', '{}', 400, /"token" is the access token/],
      ['/tokens/expire', '{"token":"nope"}', 404, /never issued/],
      ['/events', '{"type":"product.updated"}', 400, /"shop"/],
      ['/events', '{"type":"nope","shop":"1"}', 400, /no trigger for "nope"/],
      ['/events', '{"type":"product.updated","shop":"1","set":{"colour":"red"}}', 400, /no field "colour"/],
      ['/events', '{"type":"product.updated","shop":"1","set":[1]}', 400, /"set" is an object/],
    ];
    for (const [path, body, status, message] of cases) {
      const [got, said] = await post(path, body);
      expect([path, body, got], said).toEqual([path, body, status]);
      expect(said).toMatch(message);
    }
    await expect(control.expireToken('nope')).rejects.toEqual(expect.any(SandboxError));
  });

  it('links the new controls from the control API', async () => {
    const { url, token } = server.control!;
    const index = (await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      _links: Record<string, { href: string }>;
    };
    expect(index._links).toMatchObject({
      tokens: { href: `${url}/tokens` },
      events: { href: `${url}/events` },
      deliveries: { href: `${url}/webhooks/deliveries` },
      drain: { href: `${url}/webhooks/drain` },
    });
  });
});
