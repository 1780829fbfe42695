import { tokenRequest } from './test-server.js';

/**
 * A request the server holds open for about `seconds`: a long-poll of the event list that nothing ends sooner.
 * Tests of stops send signals while it is in flight, so that they arrive while the server is stopping.
 * Resolves with its status (undefined when the connection was cut).
 */
export async function heldRequest(
  origin: string,
  client: { clientId: string; clientSecret: string },
  seconds: number,
): Promise<{ answered: Promise<number | undefined> }> {
  const response = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, client);
  const { access_token: token } = (await response.json()) as { access_token: string };
  const answered = fetch(`${origin}/v1/events.json?wait=${seconds}&types=order.created`, {
    headers: { authorization: `Bearer ${token}` },
  }).then(
    async (held) => {
      await held.arrayBuffer();
      return held.status;
    },
    () => undefined,
  );
  // A request after it, on a connection of its own, answered: the server has read the held one by then (a local
  // server reads its connections in the order they came).
  await (await fetch(`${origin}/v1/`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
  return { answered };
}
