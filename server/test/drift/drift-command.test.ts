/**
 * `storefront-server drift`: its exit codes (0 in agreement, 1 on a disagreement, 2 bad flags, 3 an API that
 * cannot be read), and its reports: JSON that parses, JUnit XML that a strict XML parser reads (sax) with one
 * suite per kind and a failure per disagreement, text for people.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sax from 'sax';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type StorefrontServer } from '../../src/create-server.js';
import { checkDrift } from '../../src/drift/check-drift.js';
import { formatText } from '../../src/drift/format-text.js';
import { runDrift } from '../../src/drift-command.js';
import { type PlantingProxy, startPlantingProxy } from './planting-proxy.js';

let proxy: PlantingProxy;
let server: StorefrontServer;
let dir: string;

beforeAll(async () => {
  proxy = await startPlantingProxy();
  server = await createServer({ port: 0, products: 6, publicUrl: proxy.origin });
  proxy.target = server.url;
  dir = await mkdtemp(join(tmpdir(), 'drift-command-'));
});

afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  proxy.plant = undefined;
});

/** Runs the command with the demo app's credentials in the environment; its exit code and what it printed. */
async function drift(args: string[], secret?: string) {
  const credentials = server.credentials!;
  vi.stubEnv('STOREFRONT_REMOTE_CLIENT_ID', credentials.clientId);
  vi.stubEnv('STOREFRONT_REMOTE_CLIENT_SECRET', secret ?? credentials.clientSecret);
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(console, 'error').mockImplementation((...parts) => {
    stderr += `${parts.join(' ')}\n`;
  });
  vi.spyOn(console, 'log').mockImplementation((...parts) => {
    stdout += `${parts.join(' ')}\n`;
  });
  const code = await runDrift(args);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

/** The elements of `xml` read by a strict parser (which throws on anything not well-formed), with their attributes. */
function parseXml(xml: string): { name: string; attributes: Record<string, string>; text: string }[] {
  const parser = sax.parser(true);
  const elements: { name: string; attributes: Record<string, string>; text: string }[] = [];
  parser.onopentag = (tag) => {
    elements.push({ name: tag.name, attributes: tag.attributes as Record<string, string>, text: '' });
  };
  parser.ontext = (text) => {
    const last = elements.at(-1);
    if (last) last.text += text;
  };
  parser.onerror = (error) => {
    throw error;
  };
  parser.write(xml).close();
  return elements;
}

const api = () => `${proxy.origin}/v1`;

describe('storefront-server drift', () => {
  it('exits 0 in agreement, the text report saying so', async () => {
    const { code, stdout } = await drift(['--against', api(), '--sample', '2']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^Drift of http:\/\/127\.0\.0\.1:\d+\/v1 from the contract \(\d+ reads, \d+ kinds checked\)/,
    );
    expect(stdout).toMatch(/No disagreement/);
  });

  it('exits 1 on a disagreement; JSON that parses, naming it with an example URL', async () => {
    proxy.plant = {
      answer(answer) {
        if (/^\/v1\/shops\/[^/.]+(\.json)?$/.test(answer.path) && answer.body) answer.body.currency_code = 978;
      },
    };
    const { code, stdout } = await drift(['--against', api(), '--sample', '2', '--format', 'json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.disagreements).toEqual([
      expect.objectContaining({ kind: 'Shop', check: 'field-type', path: 'currency_code', count: 2 }),
    ]);
    expect(report.disagreements[0].example).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/shops\//);
    expect(report.kinds.Shop.reads).toBe(2);
  });

  it('writes JUnit XML to --output: well-formed, a suite per kind, a failure per disagreement', async () => {
    proxy.plant = {
      answer(answer) {
        if (/^\/v1\/shops\/[^/]+\/products\/[^/.]+(\.json)?$/.test(answer.path) && answer.body) {
          answer.body['<odd & "quoted">'] = true;
          delete answer.body.vendor;
        }
      },
    };
    const output = join(dir, 'drift.xml');
    const { code, stdout, stderr } = await drift(['--against', api(), '--format', 'junit', '--output', output]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/2 disagreements; report in .*drift\.xml/);
    const elements = parseXml(await readFile(output, 'utf8'));
    expect(elements[0]!.name).toBe('testsuites');
    const suites = elements.filter((e) => e.name === 'testsuites' || e.name === 'testsuite');
    const product = suites.find((e) => e.attributes.name === 'Product')!;
    expect(product.attributes.failures).toBe('2');
    const failures = elements.filter((e) => e.name === 'failure');
    expect(failures.map((e) => e.attributes.type).sort()).toEqual(['field-extra', 'field-missing']);
    expect(failures.map((e) => e.attributes.message).join('\n')).toContain('<odd & "quoted">');
    expect(elements[0]!.attributes.failures).toBe('2');
    const cases = elements.filter((e) => e.name === 'testcase');
    expect(Number(elements[0]!.attributes.tests)).toBe(cases.length);
    expect(suites.filter((e) => e.name === 'testsuite').map((e) => e.attributes.name)).toContain('ProductVariant');
  });

  it('lists reads an outage prevented as unchecked, exit 3, not as disagreements', async () => {
    // Every attempt at the orders answers 500 (the SDK retries twice): an outage, not a change of the contract.
    proxy.plant = {
      answer(answer) {
        if (/\/orders\.json/.test(answer.path)) answer.status = 500;
      },
    };
    const output = join(dir, 'outage.json');
    const { code, stderr } = await drift(['--against', api(), '--sample', '1', '--format', 'json', '--output', output]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/0 disagreements, 1 read could not be made; report in/);
    const report = JSON.parse(await readFile(output, 'utf8'));
    expect(report.disagreements).toEqual([]);
    expect(report.unchecked).toEqual([
      {
        kinds: ['OrderSummaryResults', 'OrderSummary'],
        url: expect.stringMatching(/orders\.json/),
        reason: 'answered 500',
      },
    ]);
    expect(report.uncheckedKinds).toEqual(['OrderSummary', 'OrderSummaryResults']);
    expect(formatText(report)).toMatch(
      /Could not check .*: OrderSummary, OrderSummaryResults:\n {2}http.*orders\.json.*: answered 500/,
    );
  });

  it('exits 4 before reading when --output cannot be written', async () => {
    const { code, stderr } = await drift(['--against', api(), '--output', join(dir, 'missing', 'x.json')]);
    expect(code).toBe(4);
    expect(stderr).toMatch(/cannot write the report to .*missing\/x\.json: ENOENT/);
  });

  it('leaves an earlier report whole while it reads: the --output check writes nothing', async () => {
    const output = join(dir, 'earlier.json');
    await writeFile(output, '{"earlier": true}\n');
    const seen: string[] = [];
    proxy.plant = {
      answer(answer) {
        if (/^\/v1\/?$/.test(answer.path)) seen.push(readFileSync(output, 'utf8'));
      },
    };
    const { code } = await drift(['--against', api(), '--sample', '1', '--format', 'json', '--output', output]);
    expect(code).toBe(0);
    expect(seen[0]).toBe('{"earlier": true}\n');
    expect(JSON.parse(await readFile(output, 'utf8')).disagreements).toEqual([]);
  });

  it('exits 2 for bad flags, saying which', async () => {
    expect((await drift([])).stderr).toMatch(/--against URL is needed/);
    for (const args of [
      [],
      ['--against', api(), '--format', 'yaml'],
      ['--against', api(), '--sample', '0'],
      ['--against', api(), '--sample', 'many'],
      ['--against', 'not a url'],
      ['--against', api(), '--unknown'],
    ]) {
      expect((await drift(args)).code, args.join(' ')).toBe(2);
    }
  });

  it('exits 3 when the API cannot be read: refused credentials, nothing listening', async () => {
    const refused = await drift(['--against', api()], 'not-the-secret');
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(
      /cannot be read: .* refused the app's credentials .*STOREFRONT_REMOTE_CLIENT_SECRET/,
    );
    expect(refused.stderr).not.toContain('not-the-secret');
    const closed = createHttpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const output = join(dir, 'unread.xml');
    const nothing = await drift(['--against', `http://127.0.0.1:${port}/v1`, '--format', 'junit', '--output', output]);
    expect(nothing.code).toBe(3);
    expect(nothing.stderr).toMatch(/cannot be read/);
    // CI keeps the report: it says the API could not be read.
    const errors = parseXml(await readFile(output, 'utf8')).filter((e) => e.name === 'error');
    expect(errors.map((e) => e.attributes.message)).toEqual([expect.stringMatching(/cannot be read/)]);
  });
});

describe('checkDrift on a slow or failing API', () => {
  it('notes a read that timed out or got no answer as unchecked, and resolves with the rest', async () => {
    const credentials = server.credentials!;
    const tokens: string[] = [];
    const report = await checkDrift({
      url: api(),
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      sample: 1,
      timeout: 500,
      // A theme that never answers within the timeout; the products' list, a connection that fails.
      fetch: (input, init) => {
        const request = new Request(input, init);
        tokens.push(request.headers.get('authorization') ?? '');
        if (/\/theme\.json$/.test(request.url)) {
          return new Promise((_, reject) =>
            request.signal.addEventListener('abort', () => reject(request.signal.reason)),
          );
        }
        if (/\/v1\/products\.json/.test(request.url)) return Promise.reject(new TypeError('fetch failed: ECONNRESET'));
        return fetch(request);
      },
    });
    expect(report.disagreements).toEqual([]);
    const unchecked = Object.fromEntries(
      report.unchecked.map((read) => [read.url.replace(/^.*\/v1/, ''), read.reason]),
    );
    // Only these two fail; a loaded machine may time out another read too, which is unchecked as well.
    expect(unchecked).toMatchObject({
      '/shops/1/theme.json': expect.stringMatching(/^GET .*theme\.json timed out after 500 ms$/),
      '/products.json': expect.stringMatching(/failed without a response: fetch failed: ECONNRESET/),
    });
    expect(report.uncheckedKinds).toEqual(expect.arrayContaining(['Theme', 'ProductSummaryResults']));
    const token = tokens.find((value) => value.startsWith('Bearer '))!;
    expect(JSON.stringify(report)).not.toContain(token.slice(7));
  });
});
