import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What the journal of the data in `dir` holds: its first line, as the store reads it (`''`: no write), or
 * `undefined` when there is no journal.
 */
export async function journalLine(dir: string): Promise<string | undefined> {
  try {
    return (await readFile(join(dir, 'db.journal.json'), 'utf8')).split('\n')[0];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
