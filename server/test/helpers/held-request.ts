import { connect } from 'node:net';
import { tokenRequest } from './test-server.js';

/**
 * A request in flight for about `seconds`: a theme title's PUT whose body's last byte comes that much later. (Not a
 * long-poll of the event list: a stopping server answers those at once.) Tests of stops send signals while it is in
 * flight, so that they arrive while the server is stopping. Resolves with its status (undefined when the connection
 * was cut).
 */
export async function heldRequest(
  origin: string,
  client: { clientId: string; clientSecret: string },
  seconds: number,
): Promise<{ answered: Promise<number | undefined> }> {
  const response = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, client);
  const { access_token: token } = (await response.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}` };
  const theme = (await (await fetch(`${origin}/v1/shops/1/theme.json`, { headers })).json()) as { id: string };
  const body = JSON.stringify({ title: 'Held' });
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(
    [
      `PUT /v1/themes/${theme.id} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      `Authorization: Bearer ${token}`,
      'Content-Type: application/json',
      `Content-Length: ${body.length}`,
      '',
      body.slice(0, -1),
    ].join('\r\n'),
  );
  const answered = new Promise<number | undefined>((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      if (status) {
        resolve(Number(status));
        socket.destroy();
      }
    });
    socket.once('close', () => resolve(undefined));
    socket.once('error', () => resolve(undefined));
  });
  // Not `end`: a server may drop a connection its client half-closed before it answers.
  setTimeout(() => socket.write(body.slice(-1)), seconds * 1000);
  // A request after it, on a connection of its own, answered: the server has read the held one's headers by then
  // (a local server reads its connections in the order they came).
  await (await fetch(`${origin}/v1/`, { headers })).arrayBuffer();
  return { answered };
}
