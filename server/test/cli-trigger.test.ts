import { describe, expect, it } from 'vitest';
import { useCli } from './helpers/cli-process.js';
import { useTempDir } from './helpers/temp-dir.js';
import { tokenRequest } from './helpers/test-server.js';

const tempDir = useTempDir();
const cli = useCli();
/** The origin the server's links name (it listens on a free port): the trigger's etag is for it. */
const PUBLIC = 'http://127.0.0.1:4999';

async function startServer(dir: string) {
  const server = cli(['--port', '0', '--data', dir, '--products', '20', '--quiet', '--public-url', PUBLIC]);
  await server.waitFor(/curl -s -H .*\n/);
  const out = server.stdout();
  const field = (name: string) => out.match(new RegExp(`${name}:\\s+(\\S+)`))![1]!;
  const url = out.match(/listening on (http:\/\/\S+)/)![1]!;
  return { server, url, credentials: { clientId: field('Client id'), clientSecret: field('Client secret') } };
}

describe('storefront-server trigger', () => {
  it('writes a real order with its event into a data directory; a GET agrees with the event', async () => {
    const dir = await tempDir();
    const first = await startServer(dir);
    const locked = cli(['trigger', 'order.created', '--shop', 'northwind', '--data', dir]);
    expect(await locked.exited).toBe(1);
    expect(locked.stderr()).toMatch(/is open by a running storefront-server \(pid \d+ .*server\.trigger/s);
    first.server.child.kill('SIGTERM');
    expect(await first.server.exited).toBe(0);

    const trigger = cli([
      'trigger',
      'order.created',
      '--shop',
      'northwind',
      '--set',
      'total=0',
      '--set',
      'contact.name=Grace Hopper',
      '--data',
      dir,
      '--public-url',
      PUBLIC,
      '--json',
    ]);
    expect(await trigger.exited).toBe(0);
    const event = JSON.parse(trigger.stdout()) as {
      id: string;
      data: { id: string; total: number; etag: string };
      _links: Record<string, { href: string }>;
    };
    expect(event.data.total).toBe(0);

    const again = await startServer(dir);
    const answer = await tokenRequest(
      again.url,
      { grant_type: 'client_credentials', scope: 'admin' },
      again.credentials,
    );
    const { access_token: token } = (await answer.json()) as { access_token: string };
    const subject = event._links['svc:subject']!.href.replace(PUBLIC, again.url);
    const conditional = await fetch(subject, {
      headers: { authorization: `Bearer ${token}`, 'if-none-match': event.data.etag },
    });
    expect(conditional.status).toBe(304);
    const listed = await fetch(`${again.url}/v1/events/${event.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(listed.status).toBe(200);
  });

  it('refuses a field that does not exist, listing the valid ones (exit 2, nothing written)', async () => {
    const dir = await tempDir();
    const { server } = await startServer(dir);
    server.child.kill('SIGTERM');
    await server.exited;
    const unknown = cli(['trigger', 'order.created', '--shop', 'northwind', '--set', 'amount=5', '--data', dir]);
    expect(await unknown.exited).toBe(2);
    expect(unknown.stderr()).toMatch(/orders have no field "amount"; the fields you can set: status, code, total/);
    const type = cli(['trigger', 'invoice.paid', '--shop', 'northwind', '--data', dir]);
    expect(await type.exited).toBe(2);
    expect(type.stderr()).toMatch(/the types you can trigger: product.created/);
    const shop = cli(['trigger', 'product.updated', '--shop', 'atlantis', '--data', dir]);
    expect(await shop.exited).toBe(2);
    expect(shop.stderr()).toMatch(/no shop "atlantis"; the shops: northwind \(id 1\)/);
  });
});
