/** A publish journal that does not apply is set aside as `.old` for a person to read, never deleted; a dry run keeps it. */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

describe('a journal that does not apply', BIN_TESTS, () => {
  it('is kept by a dry run, and set aside as .old by a publish', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('dev');
    const journal = join(dir, '.storefront-publish.jsonl');
    await writeFile(journal, 'not a journal\n');

    const dry = await t.cli(['publish', dir, '--dry-run'], { config });
    expect(dry.stdout).toMatch(/^Nothing to publish: /m);
    expect(dry.stderr).toMatch(/does not apply \(it cannot be read\): kept/);
    expect(await readFile(journal, 'utf8')).toBe('not a journal\n');

    await writeFile(join(dir, 'layout.html'), '<!doctype html>\n<title>Journal</title>\n');
    expect((await t.cli(['push', dir], { config })).code).toBe(0);
    const published = await t.cli(['publish', dir, '--yes'], { config });
    expect(published.code).toBe(0);
    expect(published.stderr).toContain(`Setting aside the journal ${journal} as ${journal}.old: it cannot be read`);
    expect(await readFile(`${journal}.old`, 'utf8')).toBe('not a journal\n');
    await expect(stat(journal)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
