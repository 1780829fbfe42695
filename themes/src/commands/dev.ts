import { storedClient } from '../auth/stored-auth.js';
import { type Command, folderOf, SHOP_OPTION } from '../cli/command.js';
import { themeName, transferProgress } from '../cli/report.js';
import { pullTheme } from '../theme/pull.js';
import { openInBrowser } from './open-url.js';
import { reportPull } from './pull-report.js';

export const dev: Command = {
  name: 'dev',
  summary: 'create (or reuse) the development theme, pull it, show its preview',
  args: '[dir]',
  description: [
    "Creates the shop's development theme (a copy of the production theme) unless it has one, pulls it into the",
    'folder (default: the working directory) as pull --dev does, and prints the address of its preview, which',
    'needs no login. A folder that held the production theme keeps its own changes, to push to this one.',
    'Then: storefront-themes watch, edit, and storefront-themes publish.',
  ].join('\n'),
  options: {
    shop: SHOP_OPTION,
    open: { type: 'boolean', description: 'open the preview in the browser' },
    force: { type: 'boolean', description: "take the server's version of conflicting files too" },
  },
  maxArgs: 1,
  async run(context) {
    const { values, output, store } = context;
    const { client } = await storedClient(store);
    const progress = transferProgress(output, 'Pulling');
    const result = await pullTheme({
      client,
      dir: folderOf(context),
      development: true,
      create: true,
      ...(typeof values.shop === 'string' ? { shop: values.shop } : {}),
      force: values.force === true,
      onProgress: progress.onProgress,
    });
    const { manifest, created } = result.workspace;
    const barShown = progress.done();
    output.line(`${created ? 'Created' : 'Using'} the development theme ${themeName(manifest)}`);
    const { preview } = manifest.theme;
    const code = reportPull(output, result, barShown, { created });
    output.line(`Preview: ${preview}`);
    if (values.open === true) await openInBrowser(preview, output);
    return code;
  },
};
