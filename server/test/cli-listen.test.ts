import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/support/free-port.js';
import { type CliProcess, useCli } from './helpers/cli-process.js';
import { useTempDir } from './helpers/temp-dir.js';
import { tokenRequest } from './helpers/test-server.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';

const tempDir = useTempDir();
const cli = useCli();
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** The built server bin on a free port, and what it printed: its origin and demo app. */
async function startServer() {
  const server = cli(['--port', '0', '--data', await tempDir(), '--products', '20', '--quiet']);
  await server.waitFor(/curl -s -H .*\n/);
  const out = server.stdout();
  const field = (name: string) => out.match(new RegExp(`${name}:\\s+(\\S+)`))![1]!;
  const origin = out.match(/listening on (http:\/\/\S+)/)![1]!;
  const credentials = { clientId: field('Client id'), clientSecret: field('Client secret') };
  const answer = await tokenRequest(origin, { grant_type: 'client_credentials', scope: 'admin' }, credentials);
  const { access_token: token } = (await answer.json()) as { access_token: string };
  /** A write through the API: the production theme of shop 1 renamed; resolves when its answer arrived. */
  const write = async (title: string) => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const theme = (await (await fetch(`${origin}/v1/shops/1/theme.json`, { headers })).json()) as { id: string };
    const response = await fetch(`${origin}/v1/themes/${theme.id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ title }),
    });
    expect(response.status).toBe(200);
    return Date.now();
  };
  return { server, origin, credentials, write, token };
}

async function startListen(
  origin: string,
  credentials: { clientId: string; clientSecret: string },
  extra: string[] = [],
): Promise<{ listen: CliProcess; secret: string }> {
  const listen = cli([
    'listen',
    '--server',
    origin,
    '--forward-to',
    receiver.url,
    '--client-id',
    credentials.clientId,
    '--client-secret',
    credentials.clientSecret,
    '--print-secret',
    ...extra,
  ]);
  const [, secret] = (await listen.waitFor(/Secret: (whsec_\S+)/)) as RegExpMatchArray;
  await listen.waitFor(/Ready: forwarding/);
  return { listen, secret: secret! };
}

describe('storefront-server listen', () => {
  it('forwards an event of a server in another process within 1 s, signed with its own secret', async () => {
    const { origin, credentials, write, token } = await startServer();
    const { listen, secret } = await startListen(origin, credentials, ['--events', 'theme.updated']);
    receiver.received.length = 0;
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const written = await write(`Listened ${i}`);
      await receiver.until(i + 1);
      latencies.push(receiver.received[i]!.at - written);
    }
    console.log(`listen: write answered → forwarded, ms: ${latencies.join(', ')} (max ${Math.max(...latencies)})`);
    expect(Math.max(...latencies)).toBeLessThan(1000);
    const [delivery] = receiver.received;
    expect(delivery!.body.endsWith('}\n')).toBe(true);
    const event = new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as {
      id: string;
      type: string;
      data: { title: string };
    };
    expect(event).toMatchObject({ type: 'theme.updated', data: { title: 'Listened 0' } });
    expect(delivery!.headers['webhook-id']).toBe(event.id);
    // The body the server's own deliveries carry: the event as GET svc:event answers it, and a newline.
    const read = await fetch(`${origin}/v1/events/${event.id}.json`, { headers: { authorization: `Bearer ${token}` } });
    expect(delivery!.body).toBe(`${await read.text()}\n`);
    await listen.waitFor(/theme\.updated {2}evt_\S+ {2}→ 204 {2}\d+ ms/);
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
    expect(listen.stdout()).toContain('Stopped.');
  });

  it('signs with the secret given by --secret, and says so', async () => {
    const { origin, credentials, write } = await startServer();
    const secret = `whsec_${Buffer.from('a fixed secret of the app, 32 b').toString('base64')}`;
    const listen = cli([
      'listen',
      ...['--server', origin, '--forward-to', receiver.url, '--secret', secret],
      ...['--client-id', credentials.clientId, '--client-secret', credentials.clientSecret],
    ]);
    await listen.waitFor(/Ready: forwarding/);
    expect(listen.stdout()).toContain('Signing with the secret given (--secret)');
    expect(listen.stdout()).not.toContain('new secret');
    receiver.received.length = 0;
    await write('Fixed secret');
    await receiver.until(1);
    const [delivery] = receiver.received;
    expect(new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>)).toMatchObject({
      type: 'theme.updated',
    });
    listen.child.kill('SIGINT');
    expect(await listen.exited).toBe(0);
  });

  it('retries a failed forward, and skips the events written before it started', async () => {
    const { origin, credentials, write } = await startServer();
    await write('Before listen');
    const { listen } = await startListen(origin, credentials);
    receiver.received.length = 0;
    let calls = 0;
    receiver.answer = () => ({ status: ++calls === 1 ? 503 : 204 });
    try {
      await write('Retried');
      await receiver.until(2);
      const [, after] = (await listen.waitFor(/→ 204 .* attempt 2 \((\d+) ms after the event\)/)) as RegExpMatchArray;
      expect(listen.stdout()).toMatch(/→ 503 {2}\d+ ms, retrying in 0.5 s/);
      // The time of the answer that took it, not of the first attempt: after the 0.5 s pause at least.
      expect(Number(after)).toBeGreaterThanOrEqual(500);
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([
        receiver.received[0]!.headers['webhook-id'],
        receiver.received[0]!.headers['webhook-id'],
      ]);
      expect(receiver.received.every((r) => !r.body.includes('Before listen'))).toBe(true);
    } finally {
      receiver.answer = () => ({ status: 204 });
    }
  });

  it('waits for a server that is not up yet, saying why, then signs in to it', async () => {
    const port = await freePort();
    const listen = cli([
      'listen',
      ...['--server', `http://127.0.0.1:${port}`, '--forward-to', receiver.url],
      ...['--client-id', 'app', '--client-secret', 'secret'],
    ]);
    await listen.waitFor(/unreachable \(connect ECONNREFUSED 127\.0\.0\.1:\d+\); retrying in/);
    expect(listen.stderr()).toBe('');
    // The server comes up there; listen signs in (refused credentials now say so, as at any start).
    const server = cli(['--port', String(port), '--data', await tempDir(), '--quiet']);
    await server.waitFor(/listening on/);
    expect(await listen.exited).toBe(1);
    expect(listen.stderr()).toMatch(/refused the credentials/);
  });

  it('exits 1 with a clear message when the credentials are refused, 2 without --forward-to', async () => {
    const { origin } = await startServer();
    const refused = cli([
      'listen',
      '--server',
      origin,
      '--forward-to',
      receiver.url,
      '--client-id',
      'x',
      '--client-secret',
      'y',
    ]);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toMatch(/refused the credentials/);
    const bad = cli(['listen', '--server', origin]);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(/--forward-to needs/);
  });
});
