/** Every command, in the order the help lists them: signing in, then the daily loop. */
import type { Command } from '../cli/command.js';
import { check } from './check.js';
import { dev } from './dev.js';
import { diff } from './diff.js';
import { list } from './list.js';
import { login } from './login.js';
import { logout } from './logout.js';
import { publish } from './publish.js';
import { pull } from './pull.js';
import { push } from './push.js';
import { setup } from './setup.js';
import { status } from './status.js';
import { watchCommand } from './watch.js';

export const COMMANDS: readonly Command[] = [
  setup,
  login,
  logout,
  list,
  pull,
  status,
  diff,
  push,
  dev,
  watchCommand,
  check,
  publish,
];
