/**
 * The developer's app credentials, as the original platform's CLI asked for them: the client id and secret of
 * an app registered on the platform, from flags, the environment or a prompt, kept for the next runs.
 */
import { originOf } from '../auth/connection.js';
import type { CommandContext, OptionSpec } from '../cli/command.js';
import { type AppCredentials, DEFAULT_URL } from '../config/store.js';
import { UsageError } from '../errors.js';

/** The options of `setup` and `login` that name the server and the app. */
export const APP_OPTIONS: Record<string, OptionSpec> = {
  url: {
    type: 'string',
    value: 'URL',
    description: `the server's origin (default: $STOREFRONT_URL, the stored one, else ${DEFAULT_URL})`,
  },
  'client-id': {
    type: 'string',
    value: 'ID',
    description: "your app's client id (default: $STOREFRONT_CLIENT_ID, else asked)",
  },
  'client-secret': {
    type: 'string',
    value: 'SECRET',
    description: "your app's client secret (default: $STOREFRONT_CLIENT_SECRET, else asked without echo)",
  },
};

const text = (value: string | boolean | (string | boolean)[] | undefined) =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The app to use, stored when it is new or changed (a session of another app or server is then forgotten).
 * `ask`: `always` prompts for what no flag or variable gives (setup), `missing` only when nothing is stored (login).
 * `verify` checks a new or changed app before it is stored, and throws to store nothing.
 */
export async function configureApp(
  context: CommandContext,
  ask: 'always' | 'missing',
  verify?: (app: AppCredentials) => Promise<void>,
): Promise<AppCredentials> {
  const { values, env, store, prompter, output } = context;
  const stored = await store.credentials();
  const url = originOf(text(values.url) ?? text(env.STOREFRONT_URL) ?? stored?.url ?? DEFAULT_URL);
  let clientId = text(values['client-id']) ?? text(env.STOREFRONT_CLIENT_ID);
  let clientSecret = text(values['client-secret']) ?? text(env.STOREFRONT_CLIENT_SECRET);
  const prompting = ask === 'always' || !stored;
  if (prompting && (!clientId || !clientSecret) && ask === 'missing') {
    output.note(
      'Your app is not set up yet: enter the client id and secret of the app you registered on the platform.',
    );
  }
  if (!clientId) {
    clientId = prompting
      ? (await prompter.ask(`Enter your application's client id${stored ? ` [${stored.clientId}]` : ''}:`, {
          flag: '--client-id',
        })) || stored?.clientId
      : stored?.clientId;
  }
  if (!clientSecret) {
    const keep = stored && stored.clientId === clientId ? stored.clientSecret : undefined;
    clientSecret = prompting
      ? (await prompter.ask(`Enter your application's client secret${keep ? ' [keep the stored one]' : ''}:`, {
          hidden: true,
          flag: '--client-secret',
        })) || keep
      : keep;
  }
  if (!clientId) throw new UsageError('a client id is required');
  if (!clientSecret) throw new UsageError('a client secret is required');
  const app: AppCredentials = { url, clientId, clientSecret };
  if (stored?.url !== url || stored.clientId !== clientId || stored.clientSecret !== clientSecret) {
    await verify?.(app);
    await store.saveCredentials(app);
    // A session belongs to the app and server that opened it.
    if (stored?.url !== url || stored.clientId !== clientId) await store.forgetSession();
  }
  return app;
}
