/**
 * `storefront-server migrate --from DIR|URL --to DIR|URL`: copies the data of a JSON data directory into a
 * PostgreSQL database (to share one sandbox), or back into a directory (a local copy). Exit codes: 0 once
 * copied, 1 when the copy failed (nothing is left half-written: the destination is written in one transaction
 * or as a new data directory), 2 for bad flags.
 */
import { statSync } from 'node:fs';
import { readCommandArgs } from './command-args.js';
import { dataFilePath } from './data-path.js';
import { copyData } from './store/copy-data.js';
import { isPostgresUrl, withoutPassword } from './store/postgres/postgres-url.js';

const USAGE = `Usage: storefront-server migrate --from DIR|URL --to DIR|URL [--replace]

Copies every row (ids, tokens, themes, asset bytes) from one store to another:
a JSON data directory (the default store, e.g. ./storefront-data) or a
PostgreSQL database (postgres://user@host:5432/db, ?schema=NAME for a schema
other than storefront). Stop the servers using either first.

  --from DIR|URL   the data to copy
  --to DIR|URL     where to copy it; must hold no data
  --replace        replace the data the destination holds
  --help           show this help
`;

/** A directory (or data file) as the JSON store takes it; a URL as is. */
const location = (given: string) => (isPostgresUrl(given) ? given : dataFilePath(given));

/** `--to DIR` as the help says: a path that is no existing file is a directory (made), its manifest inside. */
const destination = (given: string) =>
  isPostgresUrl(given) || statSync(given, { throwIfNoEntry: false })?.isFile()
    ? location(given)
    : dataFilePath(`${given}/`);

export async function runMigrate(argv: string[]): Promise<number> {
  const args = readCommandArgs('migrate', USAGE, argv, {
    from: { type: 'string' },
    to: { type: 'string' },
    replace: { type: 'boolean' },
  });
  if (typeof args === 'number') return args;
  const { values } = args;
  if (!values.from || !values.to) {
    console.error(`storefront-server migrate: --from and --to are both needed\n\n${USAGE}`);
    return 2;
  }
  try {
    const copied = await copyData(location(values.from), destination(values.to), { replace: values.replace === true });
    const counts = Object.entries(copied)
      .filter(([, count]) => count > 0)
      .map(([name, count]) => `${count} ${name}`)
      .join(', ');
    console.log(`Copied ${withoutPassword(values.from)} to ${withoutPassword(values.to)}: ${counts || 'no rows'}.`);
    return 0;
  } catch (error) {
    console.error(`storefront-server migrate: ${(error as Error).message}`);
    return 1;
  }
}
