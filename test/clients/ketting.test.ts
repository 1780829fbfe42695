/**
 * ketting, a HAL client written without this API in mind, against the real server: it follows relations by
 * name from the root to a template, expands templated links itself, and writes through links.
 *
 * ketting keeps every embedded resource as if it were the whole resource at its `self`. Our lists embed
 * summaries (wire contract), which HAL allows ("a full, or partial, representation"), so a test that reaches a
 * resource the root embedded asks for its detail with `refresh()`. It also warns about embedded items without
 * `self`: theme assets have none (spec §2.5).
 */
import { bearerAuth, Client, type Resource } from 'ketting';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { clientToken } from '../../server/test/helpers/test-server.js';
import { useClientsServer } from './server.js';

const running = useClientsServer();

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  for (const [message] of warn.mock.calls) expect(message).toMatch(/^An item in _embedded was ignored/);
  warn.mockRestore();
});

async function ketting(): Promise<Client> {
  const { server } = running();
  const client = new Client(server.baseUrl);
  client.use(bearerAuth(await clientToken(server, 'admin')));
  return client;
}

/** Root → `svc:shop` (a templated link ketting expands) → the shop's detail → `svc:theme`. */
async function productionTheme(client: Client): Promise<Resource> {
  const shop = await client.go().follow('svc:shop', { id: '1' });
  const detail = await shop.refresh();
  expect(detail.data).toMatchObject({ _class: ['shop'], id: '1' });
  return detail.follow('svc:theme');
}

describe('ketting', () => {
  it('navigates root → shop → theme → template', async () => {
    const client = await ketting();
    const root = await client.go().get();
    expect(root.data).toMatchObject({ _class: ['root'], scopes: 'admin' });

    const theme = await productionTheme(client);
    const state = await theme.get();
    expect(state.data).toMatchObject({ _class: ['theme'], production: true });
    expect(state.links.get('svc:update_theme')?.href).toBe(state.links.get('self')?.href);

    const templates = await theme.followAll('templates');
    const layout = await Promise.all(templates.map((t) => t.get())).then((all) =>
      all.find((t) => t.data.file_name === 'layout.html'),
    );
    expect(layout?.data).toMatchObject({ _class: ['themeTemplate'], content_type: 'html', body: expect.any(String) });
    expect(layout?.links.has('svc:delete_template')).toBe(false);
  });

  it('writes a template through its svc:update_template link, then reads the change', async () => {
    const client = await ketting();
    const theme = await productionTheme(client);
    const [first] = await theme.followAll('templates');
    const update = await first!.follow('svc:update_template');
    const body = '<p>written by ketting</p>';
    await update.put({ data: { body } });

    expect((await first!.refresh()).data.body).toBe(body);
    const embedded = await (await theme.refresh()).followAll('templates');
    expect(embedded.map((t) => t.uri)).toContain(first!.uri);
  });

  it('creates a template through svc:create_template, follows its Location and deletes it', async () => {
    const client = await ketting();
    const theme = await productionTheme(client);
    const create = await theme.follow('svc:create_template');
    const created = await create.postFollow({
      data: { file_name: 'ketting/made.html', body: '<p>made by ketting</p>' },
    });
    const state = await created.get();
    expect(state.data).toMatchObject({ _class: ['themeTemplate'], file_name: 'ketting/made.html' });

    await (await created.follow('svc:delete_template')).delete();
    const names = (await Promise.all((await (await theme.refresh()).followAll('templates')).map((t) => t.get()))).map(
      (t) => t.data.file_name,
    );
    expect(names).not.toContain('ketting/made.html');
  });
});
