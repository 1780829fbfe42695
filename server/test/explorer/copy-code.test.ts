/**
 * What the explorer's "Copy as SDK code" and "Copy as curl" give, run for real: the SDK code of a follow chain
 * (root → an embedded shop → its theme → an embedded template → a write) executed against the server with the
 * SDK reaches the same resources, a form's numbers are written as numbers, and the curl command keeps any text
 * intact through the shell's quoting.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as sdk from '@storefront-platform/sdk';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellQuote } from '../../src/explorer/page/curl-command.js';
import { chainTo, embeddedIn, reachedBy, type Step, sdkCode } from '../../src/explorer/page/follow-chain.js';
import { variableArgs } from '../../src/explorer/page/variable-values.js';
import { clientToken, useTestServer } from '../helpers/test-server.js';

const t = useTestServer({ products: 3 });

/** What copied code printed with `console.log`, by the last run of {@link runSdkCode}. */
let printed: unknown[][] = [];

/**
 * Runs copied SDK code (TypeScript, compiled to JavaScript; its import replaced by the SDK itself) and gives back
 * the value of its last `const`.
 */
async function runSdkCode(code: string, token: string): Promise<unknown> {
  const names = [...code.matchAll(/^const (\w+) =/gm)].map((match) => match[1]!);
  const script = ts.transpileModule(code.replace(/^import .*\n/m, ''), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
  const body = `${script}\nreturn ${names.at(-1)};`;
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<unknown>;
  printed = [];
  const console = { log: (...values: unknown[]) => printed.push(values) };
  return new AsyncFunction('bearer', 'createClient', 'process', 'console', body)(
    sdk.bearer,
    sdk.createClient,
    { env: { STOREFRONT_TOKEN: token } },
    console,
  );
}

describe('Copy as SDK code', () => {
  it('gives code that follows the same chain with the SDK, and writes', async () => {
    const server = t();
    const token = await clientToken(server, 'admin');
    const theme = server.store.all('themes').find((row) => row.shop_id === '1' && row.production)!;
    const templates = server.store.where('templates', 'theme_id', theme.id);
    const index = templates.findIndex((row) => row.file_name === 'page.html');
    const steps: Step[] = [
      { kind: 'root' },
      { kind: 'embedded', name: 'shops', index: 0, label: 'Dana Demo shop */ evil()' },
      { kind: 'follow', rel: 'self', method: 'GET' },
      { kind: 'follow', rel: 'svc:theme', method: 'GET' },
      { kind: 'embedded', name: 'templates', index, label: 'page.html' },
      { kind: 'follow', rel: 'self', method: 'GET' },
    ];
    const code = sdkCode(steps, server.baseUrl);
    expect(code.split('\n').slice(0, 10)).toEqual([
      '// TypeScript (an ES module: top-level await). Run with: STOREFRONT_TOKEN=… npx tsx explore.ts',
      "import { bearer, createClient } from '@storefront-platform/sdk';",
      '',
      'const token = process.env.STOREFRONT_TOKEN;',
      "if (!token) throw new Error('Set STOREFRONT_TOKEN to an access token of the API.');",
      `const client = createClient({ baseUrl: ${JSON.stringify(server.baseUrl)}, auth: bearer(token) });`,
      'const root = await client.root();',
      'const shop = root.embedded("shops")[0];',
      'if (!shop) throw new Error("Dana Demo shop */ evil() is no longer among the shops of root");',
      'const shop2 = await shop.follow("self");',
    ]);
    const template = (await runSdkCode(code, token)) as sdk.Entity;
    expect(template.properties).toMatchObject({ file_name: 'page.html' });
    // It prints what the last request answered.
    expect(JSON.parse(String(printed.at(-1)?.[0]))).toMatchObject({ file_name: 'page.html' });

    // The write that follows, with its body: it happens.
    const row = templates[index]!;
    const write: Step = {
      kind: 'follow',
      rel: 'svc:update_template',
      method: 'PUT',
      args: { body: '<p>it\'s "new"</p>\n', file_name: 'page.html', last_updated_on: row.updated_on },
    };
    const written = sdkCode([...steps, write], server.baseUrl);
    expect(written).toContain('const template3 = await template2.follow("svc:update_template", {');
    await runSdkCode(written, token);
    expect(server.store.get('templates', row.id)!.body).toBe('<p>it\'s "new"</p>\n');
  });

  it('starts from the address of a resource opened by its URL, and names what it reaches apart', async () => {
    const server = t();
    const token = await clientToken(server, 'admin');
    const url = `${server.baseUrl}/shops/1.json`;
    const code = sdkCode(
      [
        { kind: 'address', url },
        { kind: 'follow', rel: 'svc:theme', method: 'GET' },
        { kind: 'follow', rel: 'self', method: 'GET' },
      ],
      server.baseUrl,
    );
    expect(code).toContain(
      `const resource = await client.restore({ _links: { self: { href: ${JSON.stringify(url)} } } }`,
    );
    expect(code).toContain('const theme = await resource.follow("svc:theme");');
    expect(code).toContain('const theme2 = await theme.follow("self");');
    const theme = (await runSdkCode(code, token)) as sdk.Entity;
    expect(theme._class).toEqual(['theme']);
  });

  it('finds an embedded resource by its self: a delete run after the list moved reaches it, not its new neighbour', async () => {
    const server = t();
    const token = await clientToken(server, 'admin');
    const client = sdk.createClient({ baseUrl: server.baseUrl, auth: sdk.bearer(token) });
    const url = `${server.baseUrl}/shops/1/theme.json`;
    const theme = (await client.restore({ _links: { self: { href: url } } }, url).follow('self')) as sdk.Entity;
    reachedBy(theme, [{ kind: 'address', url }]);
    const templates = theme.embedded('templates' as never) as sdk.Entity[];
    // Three in a row that may be deleted (`layout.html` may not).
    const deletable = (x: sdk.Entity | undefined) => x && x.properties.file_name !== 'layout.html';
    const at = templates.findIndex((_, i) => [i - 1, i, i + 1].every((n) => deletable(templates[n])));
    const [first, chosen, next] = templates.slice(at - 1, at + 2);
    embeddedIn(chosen!, theme, 'templates', at, String(chosen!.properties.file_name));
    const code = sdkCode(
      [...chainTo(chosen!), { kind: 'follow', rel: 'svc:delete_template', method: 'DELETE' }],
      server.baseUrl,
    );
    // The list moves before the code runs: the first template goes, `next` takes the chosen one's place.
    const gone = await fetch(first!.link('self').resolve().url, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(gone.status).toBe(204);
    await runSdkCode(code, token);
    expect(printed).toEqual([['Deleted.']]);
    expect(server.store.get('templates', String(chosen!.properties.id))).toBeUndefined();
    expect(server.store.get('templates', String(next!.properties.id))).toBeDefined();
  });
});

describe('Copy as SDK code of a form', () => {
  // That it compiles under strict tsc: test/docs/explorer-sdk-code.test.ts.
  it('writes the numbers typed in as numbers, and the code runs', async () => {
    const server = t();
    const token = await clientToken(server, 'admin');
    // The form of `svc:all_products` filled in as a user would: every field is text.
    const args = variableArgs([
      { name: 'q', value: '5' },
      { name: 'page', value: '2' },
      { name: 'per_page', value: '1' },
      { name: 'sort', value: '' },
    ]);
    const code = sdkCode(
      [{ kind: 'root' }, { kind: 'follow', rel: 'svc:all_products', method: 'GET', args }],
      server.baseUrl,
    );
    expect(code).toContain('"per_page": 1');
    expect(code).toContain('"page": 2');
    // A text variable stays text, digits or not.
    expect(code).toContain('"q": "5"');
    expect(code).not.toContain('sort');
    const list = (await runSdkCode(code, token)) as sdk.Entity;
    expect(list.properties).toMatchObject({ page: 2, per_page: 1 });
  });

  it('leaves text that is no number as typed, for the SDK or the server to refuse', () => {
    expect(variableArgs([{ name: 'per_page', value: 'five' }])).toEqual({ per_page: 'five' });
    expect(variableArgs([{ name: 'wait', value: ' 3 ' }])).toEqual({ wait: 3 });
  });
});

describe('Copy as curl', () => {
  // The page's own `Idempotency-Key` is left out: a copy run later would get the first answer replayed.
  it('quotes any text for the shell: what the server gets is what was sent', async () => {
    const text = `it's "quoted" $HOME \`date\` \\ \n ${'\u{1F600}'}`;
    const { stdout } = await promisify(execFile)('sh', ['-c', `printf %s ${shellQuote(text)}`]);
    expect(stdout).toBe(text);
    const command = curlCommand(
      {
        method: 'POST',
        url: 'http://x.test/a?b=1',
        headers: { authorization: '[REDACTED]', 'if-match': '"1"', 'idempotency-key': '"8e03978e-40d5"' },
        body: { a: text },
      },
      undefined,
    );
    expect(command).toBe(
      `curl -i -X POST 'http://x.test/a?b=1' -H "Authorization: Bearer \${STOREFRONT_TOKEN}" -H 'if-match: "1"' ` +
        `-H 'content-type: application/json' --data-raw ${shellQuote(JSON.stringify({ a: text }))}`,
    );
  });
});
