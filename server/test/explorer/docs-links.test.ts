/** The explorer's documentation link of a relation: its curie expanded, as the SDK's navigation reads curies. */
import type { HalResource } from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { curiesOf, docsUrl } from '../../src/explorer/page/docs-links.js';

const base = 'http://api.test/v1/shops/1.json';
const withCuries = (curies: unknown): HalResource => ({ _links: { self: { href: base }, curies } }) as HalResource;

describe('documentation links', () => {
  it('expands a compact relation through its curie, resolved against the document', () => {
    const curies = curiesOf(withCuries([{ name: 'svc', href: '/rels/{rel}', templated: true }]), base);
    expect(docsUrl('svc:update_theme', curies)).toBe('http://api.test/rels/update_theme');
    expect(docsUrl('svc:a b/c', curies)).toBe('http://api.test/rels/a%20b%2Fc');
  });

  it('keeps `{rel}` anywhere in the template, in a query too', () => {
    const curies = curiesOf(
      withCuries([{ name: 'doc', href: 'https://docs.test/r?rel={rel}', templated: true }]),
      base,
    );
    expect(docsUrl('doc:theme', curies)).toBe('https://docs.test/r?rel=theme');
  });

  it('has none for a relation without a declared prefix, an absolute IRI among them', () => {
    const curies = curiesOf(withCuries([{ name: 'svc', href: '/rels/{rel}', templated: true }]), base);
    for (const rel of ['next', 'self', 'other:theme', 'https://example.test/rels/theme', ':theme']) {
      expect(docsUrl(rel, curies), rel).toBeUndefined();
    }
    expect(docsUrl('svc:theme', curiesOf({ _links: { self: { href: base } } } as HalResource, base))).toBeUndefined();
  });

  it('skips malformed curies, and an unparsable template does not stop the page', () => {
    const curies = curiesOf(withCuries([{ name: 'svc' }, { href: '/x/{rel}' }, 'svc', null]), base);
    expect(docsUrl('svc:theme', curies)).toBeUndefined();
    // The explorer's own resolution threw here, and the resource was never drawn.
    const odd = curiesOf(withCuries([{ name: 'odd', href: 'http://[bad/{rel}', templated: true }]), base);
    expect(docsUrl('odd:theme', odd)).toBe('http://[bad/theme');
  });
});
