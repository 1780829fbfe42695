import { OAuthError } from '@storefront-platform/sdk';
import { signInInBrowser, signInWithClientCredentials, signInWithPassword } from '../auth/sign-in.js';
import { verifyApp } from '../auth/verify-app.js';
import { type Command, LOGIN_OPTION } from '../cli/command.js';
import type { Session } from '../config/store.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { printable } from '../printable.js';
import { APP_OPTIONS, configureApp } from './app.js';
import { openInBrowser } from './open-url.js';

const GRANT_NAMES: Record<Session['grant'], string> = {
  authorization_code: 'through the browser',
  password: 'with a password',
  client_credentials: "with the app's own credentials",
};

export const login: Command = {
  name: 'login',
  summary: 'sign in: in the browser, with --password, or --client-credentials (CI)',
  args: '',
  description: [
    'Signs you in and keeps the session in your configuration folder (mode 0600); the token is renewed through',
    "the JWT bearer grant as it expires. By default the browser opens the platform's sign-in page and comes back",
    'to this command on a free port of 127.0.0.1 (authorization code with PKCE). --password asks for your login',
    "and password in the terminal instead (the password without echo). --client-credentials uses the app's own",
    "credentials, acting as the app's owner: for CI, with STOREFRONT_URL, STOREFRONT_CLIENT_ID and",
    'STOREFRONT_CLIENT_SECRET set. The app is set up first when it is not yet (see setup): a new app is checked with',
    'the server before it is stored, and before any password is asked; one the server refuses is not stored.',
  ].join('\n'),
  options: {
    password: { type: 'boolean', description: 'sign in with your login and password, asked in the terminal' },
    username: { type: 'string', value: 'LOGIN', description: 'your login for --password (default: asked)' },
    'client-credentials': { type: 'boolean', description: "sign in as the app's owner, with no user (CI)" },
    'no-browser': { type: 'boolean', description: 'print the sign-in address instead of opening a browser' },
    port: { type: 'string', value: 'N', description: 'port of the loopback redirect (default: a free one)' },
    login: LOGIN_OPTION,
    ...APP_OPTIONS,
  },
  maxArgs: 0,
  async run(context) {
    const { values, output, prompter, store } = context;
    const usePassword = values.password === true || values.username !== undefined;
    if (usePassword && values['client-credentials']) {
      throw new UsageError('choose one of --password and --client-credentials');
    }
    const port = values.port === undefined ? undefined : Number(values.port);
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
      throw new UsageError(`--port must be a port number, got "${values.port}"`);
    }
    // A new or changed app is checked before it is stored, and before any password is asked: a pair the server
    // refuses is not kept (it would fail every later run), and the password typed would be wasted.
    const app = await configureApp(context, 'missing', (candidate) => verifyApp(candidate, ''));
    let session: Session;
    if (values['client-credentials']) session = await signInWithClientCredentials(app);
    else if (usePassword) {
      const username =
        (typeof values.username === 'string' && values.username) ||
        (await prompter.ask('Enter your login:', { flag: '--username' }));
      const secret = await prompter.ask('Enter your password:', { hidden: true, flag: 'it on standard input' });
      session = await signInWithPassword(app, username, secret).catch((error) => {
        // Not "run login": this is login. What to do is to type them again.
        if (!(error instanceof OAuthError && error.error === 'invalid_grant')) throw error;
        const why = printable(String(error.errorDescription ?? error.error));
        throw new CliError(
          `the server refused this login and password (${why}): check them and run this command again`,
        );
      });
    } else {
      session = await signInInBrowser(app, {
        port,
        visit: async (url) => {
          output.note(`Sign in on this page (waiting for the browser):\n  ${url}`);
          if (values['no-browser'] !== true) await openInBrowser(url, output);
        },
      });
    }
    await store.saveSession(session);
    output.line(`Logged in to ${session.url} as ${printable(session.user)}, ${GRANT_NAMES[session.grant]}`);
    output.document({ ok: true, url: session.url, user: session.user, grant: session.grant });
    return ExitCode.ok;
  },
};
