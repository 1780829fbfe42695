/**
 * Where the examples connect, from the environment (see `examples/run.ts`): the reference server started by
 * `npm start` unless told otherwise.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { ExampleOptions } from './options.js';

/** The API and app an example uses. */
export type Connection = Pick<ExampleOptions, 'baseUrl' | 'authUrl' | 'clientId' | 'clientSecret'>;

/**
 * The demo app of a reference server's data files (docs/server.md, "Data files"): the manifest names the file
 * of each collection, and the first app is the demo app.
 */
async function demoApp(dataFile: string): Promise<{ clientId: string; clientSecret: string }> {
  let manifest: { collections?: { apps?: string } };
  try {
    manifest = JSON.parse(await readFile(dataFile, 'utf8'));
  } catch (error) {
    throw new Error(
      `STOREFRONT_CLIENT_ID and STOREFRONT_CLIENT_SECRET are not set, and the data file ${dataFile} cannot be read ` +
        `(${(error as Error).message}). Start the server first (npm start), or set them to the credentials it prints.`,
    );
  }
  const appsFile = join(dirname(dataFile), manifest.collections?.apps ?? 'db.apps.json');
  const apps = JSON.parse(await readFile(appsFile, 'utf8')) as { client_id: string; client_secret: string }[];
  const app = apps[0];
  if (!app) {
    throw new Error(`The data file ${dataFile} holds no app: set STOREFRONT_CLIENT_ID and STOREFRONT_CLIENT_SECRET`);
  }
  return { clientId: app.client_id, clientSecret: app.client_secret };
}

/**
 * `STOREFRONT_URL` (the server's origin, default `http://127.0.0.1:4000`), and the app from
 * `STOREFRONT_CLIENT_ID` + `STOREFRONT_CLIENT_SECRET`, else from the data file `STOREFRONT_DATA`
 * (default `storefront-data/db.json`, the server's own default).
 */
export async function connectionFromEnv(env: NodeJS.ProcessEnv): Promise<Connection> {
  const origin = (env.STOREFRONT_URL ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
  const { STOREFRONT_CLIENT_ID: clientId, STOREFRONT_CLIENT_SECRET: clientSecret } = env;
  const app =
    clientId && clientSecret
      ? { clientId, clientSecret }
      : await demoApp(resolve(env.STOREFRONT_DATA ?? 'storefront-data/db.json'));
  return { baseUrl: `${origin}/v1`, authUrl: origin, ...app };
}

/**
 * What to do when nothing answers at `origin` (a network error): start the server, or, when it listens on
 * another port or host, say where with `STOREFRONT_URL`.
 */
export function unreachable(origin: string): string {
  return (
    `Nothing answers at ${origin}. Is the server running? Start it with: npm start\n` +
    'If it listens elsewhere (npm start -- --port 5000, say), give the examples its origin: ' +
    'STOREFRONT_URL=http://127.0.0.1:5000 npm run example -- …'
  );
}
