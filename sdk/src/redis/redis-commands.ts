import type { RedisClient, RedisStoreOptions } from './redis-client.js';

/** Sends one command, given as its words, and resolves with the reply. */
export type SendCommand = (args: string[]) => Promise<unknown>;

type Callable = (...args: unknown[]) => Promise<unknown>;

/**
 * How to send a command through `client`, by its kind (see {@link RedisClient}). Every kind answers the commands
 * the stores send in the same shapes: strings, integers, arrays of strings, null.
 */
function commandsOf(client: RedisClient): SendCommand {
  const methods = (client ?? {}) as Record<string, unknown>;
  const call = methods.call;
  const sendCommand = methods.sendCommand;
  // ioredis: its `sendCommand` takes a Command object of its own; `call` takes the words.
  if (typeof call === 'function') return (args) => (call as Callable).apply(client, args);
  if (typeof sendCommand === 'function') {
    // A node-redis cluster routes by the key it is told, not by the command's arguments.
    if (typeof methods.getSlotMaster === 'function') {
      return (args) => (sendCommand as Callable).call(client, keyOf(args), false, args);
    }
    return (args) => (sendCommand as Callable).call(client, args);
  }
  throw new TypeError(
    'The Redis stores need a Redis client (node-redis 4, 5 or 6, or ioredis 5 or 6), connected; this has neither ' +
      `\`sendCommand\` nor \`call\`: ${shapeOf(client)}`,
  );
}

/** The key of a command the stores send: a script's first key (every script here has one), else the first argument. */
function keyOf(args: string[]): string | undefined {
  return args[0] === 'EVAL' || args[0] === 'EVALSHA' ? args[3] : args[1];
}

function shapeOf(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  return `an object with ${Object.keys(value).slice(0, 5).join(', ') || 'no own properties'}`;
}

/** The SHA-1 of each script sent, hex, as EVALSHA names it. */
const scriptShas = new Map<string, Promise<string>>();

function shaOf(script: string): Promise<string> {
  let sha = scriptShas.get(script);
  if (sha === undefined) {
    sha = crypto.subtle
      .digest('SHA-1', new TextEncoder().encode(script))
      .then((digest) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join(''));
    scriptShas.set(script, sha);
  }
  return sha;
}

/**
 * Sends `args` through `send`; an EVAL goes as EVALSHA, so that Redis neither receives nor hashes the script again
 * on every call (a rate budget sends two per request). A Redis that does not hold the script (restarted, flushed,
 * another node of a cluster) answers NOSCRIPT, and the EVAL follows, which loads it. A user whose ACL grants EVAL
 * but not EVALSHA (NOPERM) gets the EVAL too, and `whole` keeps this store's later scripts from asking again.
 */
async function sendScripted(send: SendCommand, args: string[], whole: { scripts: boolean }): Promise<unknown> {
  if (args[0] !== 'EVAL' || whole.scripts) return send(args);
  try {
    return await send(['EVALSHA', await shaOf(args[1]!), ...args.slice(2)]);
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (message.startsWith('NOPERM')) whole.scripts = true;
    else if (!message.startsWith('NOSCRIPT')) throw error;
    return send(args);
  }
}

/** Sends `args` through `send` (see {@link sendScripted}), rejecting after `timeout` ms. */
function command(send: SendCommand, args: string[], timeout: number, whole: { scripts: boolean }): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis did not answer ${args[0]} within ${timeout} ms`)), timeout);
    // A client that throws instead of rejecting fails the same way.
    Promise.resolve()
      .then(() => sendScripted(send, args, whole))
      .then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
  });
}

/**
 * What every Redis store makes of its options: `run` sends a command, rejecting after `commandTimeout` ms;
 * `key` names the key of `kind` and `id` under `prefix` (`storefront:token:{owner}`).
 */
export function redisStore(options: RedisStoreOptions) {
  const prefix = options.prefix ?? 'storefront';
  const timeout = options.commandTimeout ?? 1_000;
  const send = commandsOf(options.client);
  const whole = { scripts: false };
  return {
    run: (args: string[]) => command(send, args, timeout, whole),
    key: (kind: string, id: string) => `${prefix}:${kind}:${id}`,
  };
}
