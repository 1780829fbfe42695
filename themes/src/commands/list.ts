import { storedClient } from '../auth/stored-auth.js';
import { type Command, SHOP_OPTION } from '../cli/command.js';
import { ExitCode } from '../errors.js';
import { printable } from '../printable.js';
import { listThemes } from '../theme/list.js';
import { readManifest } from '../theme/manifest.js';

export const list: Command = {
  name: 'list',
  summary: "the shop's themes: role, id, title, last update, preview address",
  args: '',
  description: [
    'Lists the themes of the shop (--shop, else the one of the theme in the working directory, else your only',
    'shop): the production theme, and the development theme when there is one (see dev), each with its id, title,',
    'when it last changed and the address of its preview, which needs no login.',
  ].join('\n'),
  options: { shop: SHOP_OPTION },
  maxArgs: 0,
  async run(context) {
    const { values, output, store, cwd } = context;
    const shop =
      typeof values.shop === 'string' ? values.shop : (await readManifest(cwd).catch(() => undefined))?.shop.id;
    const { client } = await storedClient(store);
    const list = await listThemes(client, shop);
    output.line(`Themes of ${printable(list.shop.name)} (${printable(list.shop.subdomain)}):`);
    const rows = list.themes.map((t) => [t.role, t.id, printable(t.title), t.updated_on, t.preview]);
    const head = ['ROLE', 'ID', 'TITLE', 'UPDATED', 'PREVIEW'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const row = (cells: string[]) =>
      `  ${cells.map((c, i) => (i < cells.length - 1 ? c.padEnd(widths[i]!) : c)).join('  ')}`;
    output.line(output.paint('bold', row(head)));
    for (const cells of rows) output.line(row(cells));
    if (list.themes.length === 1) output.line('No development theme yet: storefront-themes dev creates it');
    output.document({ ok: true, ...list });
    return ExitCode.ok;
  },
};
