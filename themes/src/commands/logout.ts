import { type Command, LOGIN_OPTION } from '../cli/command.js';
import { ExitCode } from '../errors.js';

export const logout: Command = {
  name: 'logout',
  summary: 'delete the stored credentials and token',
  args: '',
  description: "Deletes the app's credentials and your session from your configuration folder.",
  options: { login: LOGIN_OPTION },
  maxArgs: 0,
  async run({ store, output }) {
    const deleted = await store.clear();
    output.line(
      deleted ? `Logged out: deleted the credentials and token in ${store.dir}` : 'Not logged in: nothing to delete',
    );
    output.document({ ok: true, deleted });
    return ExitCode.ok;
  },
};
