/**
 * What `pull --merge` says when it leaves conflict markers, and that doing what it says resolves the conflict:
 * the markers edited away, `push` sends the file (the merge made the server's version its base). It used to
 * suggest `pull --merge` again, which cannot resolve anything.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN_TESTS } from './helpers/cli.js';
import { useThemesServer } from './helpers/server.js';

const themes = useThemesServer();

describe('pull --merge leaving conflict markers', BIN_TESTS, () => {
  it('says to edit the markers and push, and push then sends the resolved file', async () => {
    const t = themes();
    const { config, dir } = await t.checkedOut('pull');
    const { theme } = await t.theme(false);
    const template = theme.embedded('templates').find((x) => x.properties.file_name === '404.html')!;
    const original = template.properties.body;
    await writeFile(join(dir, '404.html'), original.replace('<h1>Page not found</h1>', '<h1>Mine</h1>'));
    t.clock.advance(1000);
    await template.follow('svc:update_template', {
      body: original.replace('<h1>Page not found</h1>', '<h1>Theirs</h1>'),
    });

    const pull = await t.cli(['pull', dir, '--merge'], { config });
    expect(pull.code).toBe(3);
    expect(pull.stdout).toContain('404.html holds conflict markers: edit each region to what it should be');
    expect(pull.stdout).toContain('delete the marker lines, then push');
    expect(pull.stdout).not.toContain('pull --merge');

    const marked = await readFile(join(dir, '404.html'), 'utf8');
    const resolved = marked.replace(/<<<<<<< folder\n[\s\S]*?>>>>>>> server\n/, '  <h1>Mine and theirs</h1>\n');
    expect(resolved).not.toBe(marked);
    await writeFile(join(dir, '404.html'), resolved);
    const push = await t.cli(['push', dir], { config });
    expect(push.stdout).toMatch(/^ {2}updated {2}404\.html$/m);
    expect(push.code).toBe(0);
    const { theme: after } = await t.theme(false);
    expect(after.embedded('templates').find((x) => x.properties.file_name === '404.html')!.properties.body).toBe(
      resolved,
    );
  });
});
