/**
 * A server stopping while a client long-polls the event list (`listen`, an app's feed reader): the poll answers at
 * once with what it has, so that Ctrl-C stops the server now rather than after the poll's wait (25 s).
 */
import { expect, it } from 'vitest';
import { createServer } from '../../src/create-server.js';
import { tokenRequest } from '../helpers/test-server.js';

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
