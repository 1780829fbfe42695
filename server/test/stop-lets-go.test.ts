/**
 * A server stopping lets go at once what it holds on purpose: a client's long-poll of the event list (`listen`, an
 * app's feed reader) answers with what it has, a request a fault rule delays is answered, and a slow body is sent
 * whole, so that Ctrl-C stops the server now rather than after the poll's wait (25 s), the rule's delay (up to 10 min)
 * or the body's pace.
 */
import { expect, it } from 'vitest';
import { createServer } from '../src/create-server.js';
import { connectSandbox } from '../src/sandbox/client.js';
import { clientToken, tokenRequest } from './helpers/test-server.js';

it('answers a held long-poll at once when the server stops, and the stop waits for no poll', async () => {
  const server = await createServer({ port: 0, products: 2 });
  const answer = await tokenRequest(
    server.origin,
    { grant_type: 'client_credentials', scope: 'admin' },
    server.credentials,
  );
  const { access_token: token } = (await answer.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}` };
  const held = fetch(`${server.baseUrl}/events.json?wait=25`, { headers });
  // Answered after the held one was read: a local server reads its connections in the order they came.
  await (await fetch(`${server.baseUrl}/`, { headers })).arrayBuffer();
  let answered = false;
  void held.then(() => {
    answered = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(answered).toBe(false); // held: nothing to answer yet

  // Within the test's 20 s: a stop held for the poll's 25 s fails it.
  await server.close();
  const response = await held;
  expect(response.status).toBe(200);
  expect(response.headers.get('connection')).toBe('close');
  expect(await response.json()).toMatchObject({ total_items: 0 });
});

it('answers a request a fault rule delays at once when the server stops', async () => {
  const server = await createServer({ port: 0, products: 2, control: true });
  const control = connectSandbox(server.control!);
  await control.faults.add({ kind: 'delay', delay_ms: 120_000, path: '/v1/' });
  const token = await clientToken(server);
  const held = fetch(`${server.baseUrl}/`, { headers: { authorization: `Bearer ${token}` } });
  // Journaled once answered; until then, listed as hit: the rule holds it.
  await expect.poll(async () => (await control.faults.list())[0]?.hits, { timeout: 10_000 }).toBe(1);

  // Within the test's 20 s: a stop held for the rule's 2 minutes fails it.
  await server.close();
  expect((await held).status).toBe(200);
});

it('sends the rest of a slow body at once when the server stops, whole', async () => {
  const server = await createServer({ port: 0, products: 2, control: true });
  const control = connectSandbox(server.control!);
  // One byte a second: the root's body would take minutes.
  await control.faults.add({ kind: 'slow_body', bytes_per_second: 1, path: '/v1/' });
  const token = await clientToken(server);
  const response = await fetch(`${server.baseUrl}/`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  const length = Number(response.headers.get('content-length'));
  expect(length).toBeGreaterThan(100);
  const body = response.text();

  // Within the test's 20 s: a stop held for the body's pace fails it.
  await server.close();
  const text = await body;
  expect(new TextEncoder().encode(text).byteLength).toBe(length);
  expect(JSON.parse(text)).toMatchObject({ _links: { self: {} } });
});
