/**
 * The document's examples are the seed's own answers: up to date with the server, valid by their schemas, and
 * their links lead to operations of the document (a mock that serves them can be followed, as the server can).
 */
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { EXAMPLES_MODULE, examplesModule } from '../../../scripts/openapi-examples.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer({ products: 3 });

// biome-ignore lint/suspicious/noExplicitAny: the document is read as the JSON it is
type Json = any;

/** Every link that is not a template, anywhere in `value`: its `href` and the method it is followed with. */
function hrefs(value: unknown, out: [string, string][] = []): [string, string][] {
  if (Array.isArray(value)) for (const item of value) hrefs(item, out);
  else if (value && typeof value === 'object') {
    const link = value as Json;
    if (typeof link.href === 'string' && !link.templated) out.push([link.href, link.method ?? 'get']);
    for (const member of Object.values(value)) hrefs(member, out);
  }
  return out;
}

describe('the examples of the served document', () => {
  it('are what the seed gives (else run npm run docs)', { timeout: 60_000 }, async () => {
    expect(await readFile(EXAMPLES_MODULE, 'utf8')).toBe(await examplesModule());
  });

  it('answer each resource GET with its schema’s shape, and each of their links leads to an operation', async () => {
    const document: Json = await (await fetch(`${server().baseUrl}/openapi.json`)).json();
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ ...document, $id: 'https://storefront.test/openapi.json' });
    const templates = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
    }));
    const examples: [string, unknown][] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      const media = item.get?.responses['200']?.content?.['application/json'];
      if (media?.example !== undefined) examples.push([`${path} ${item.get.operationId}`, media.example]);
      if (!media?.example) continue;
      const pointer = `https://storefront.test/openapi.json#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema`;
      const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
      expect(validate(media.example), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(examples.map(([at]) => at.split(' ')[1])).toEqual(
      expect.arrayContaining(['getRoot', 'listProducts', 'getProduct', 'getTheme', 'getTemplate']),
    );
    // A shop's storefront is its own site: the links that matter are the server's.
    const links = examples
      .flatMap(([, example]) => hrefs(example))
      .filter(([href]) => href.startsWith(server().origin));
    expect(links.length).toBeGreaterThan(50);
    for (const [href, method] of links) {
      const { pathname } = new URL(href);
      const found = templates.find((t) => t.pattern.test(pathname) && document.paths[t.path][method]);
      expect(found, `${method} ${href}`).toBeDefined();
    }
  });
});
