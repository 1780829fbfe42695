import { verifyApp } from '../auth/verify-app.js';
import { type Command, LOGIN_OPTION } from '../cli/command.js';
import { ExitCode } from '../errors.js';
import { APP_OPTIONS, configureApp } from './app.js';

export const setup: Command = {
  name: 'setup',
  summary: "store your app's client id and secret (login asks for them too)",
  args: '',
  description: [
    "Stores the client id and secret of the app you registered on the platform, and the server's address, in",
    'your configuration folder ($XDG_CONFIG_HOME/storefront-themes, mode 0600). Each comes from its flag, else',
    'its environment variable, else a prompt (the secret without echo). For the browser login, register',
    'http://127.0.0.1/callback as a redirect URI of the app: any port is then accepted there.',
    'The id and secret are checked with the server first (one token request): a pair it does not accept is not',
    'stored (exit code 1). --no-verify stores them unchecked (a server not reachable from here yet).',
  ].join('\n'),
  options: {
    login: LOGIN_OPTION,
    ...APP_OPTIONS,
    'no-verify': { type: 'boolean', description: 'store the app without checking it with the server' },
  },
  maxArgs: 0,
  async run(context) {
    const app = await configureApp(context, 'always', context.values['no-verify'] === true ? undefined : verifyApp);
    const { output, store } = context;
    output.line(`Stored the app ${app.clientId} for ${app.url} in ${store.credentialsFile}`);
    output.line('Next: storefront-themes login');
    output.document({ ok: true, url: app.url, clientId: app.clientId, file: store.credentialsFile });
    return ExitCode.ok;
  },
};
