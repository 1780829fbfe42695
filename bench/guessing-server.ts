/**
 * The reference server for the guessing run of `server-oauth.bench.ts`, in a process of its own so that the
 * bench's client does not share its event loop. `GUESSING_CHECKS` sets the bound on concurrent password checks
 * (`Infinity` lifts it). Prints `{url, clientId, clientSecret, login}` as one JSON line; stops on SIGTERM.
 */
import { createServer } from '../server/src/create-server.js';
import { passwordChecks } from '../server/src/oauth/secrets.js';

if (process.env.GUESSING_CHECKS) passwordChecks.limit = Number(process.env.GUESSING_CHECKS);
const clientSecret = 'bench-secret';
const server = await createServer({ port: 0, products: 30, demo: { clientSecret } });
const { clientId, login } = server.credentials!;
console.log(JSON.stringify({ url: server.url, clientId, clientSecret, login, checks: passwordChecks.limit }));
process.once('SIGTERM', () => void server.close());
