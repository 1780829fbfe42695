/**
 * The template variables of the explorer's link form: the SDK's own reading of the template, so that the form
 * requires exactly what the SDK's expansion requires (a field left optional that the SDK needs would only fail
 * on sending; one required that the SDK can do without would block a valid request).
 */
import { Link } from '@storefront-platform/sdk';
import { describe, expect, it } from 'vitest';
import { formVariables } from '../../src/explorer/page/action-dialog.js';

const templated = (href: string) => ({ href, templated: true });

/** Whether the SDK expands `href` without a value for `name` (every other variable given). */
function expandsWithout(href: string, name: string): boolean {
  const link = new Link('x', { href, templated: true }, 'http://api.test/');
  const args = Object.fromEntries(link.variables.filter((v) => v !== name).map((v) => [v, 'v']));
  try {
    link.expand(args);
    return true;
  } catch (error) {
    if ((error as { reason?: string }).reason === 'missing') return false;
    throw error;
  }
}

describe('the variables of the link form', () => {
  it('requires the variables of simple, reserved, label and path expansions', () => {
    expect(formVariables(templated('/a/{id}{+path}{.ext}{/seg}'))).toEqual([
      { name: 'id', required: true },
      { name: 'path', required: true },
      { name: 'ext', required: true },
      { name: 'seg', required: true },
    ]);
  });

  it('leaves optional the variables of query, path-style parameter and fragment expansions', () => {
    // The explorer's own parser required `;` and `#` variables, which the SDK expands fine without.
    expect(formVariables(templated('/a{;x}{?q,page}{&more}{#frag}'))).toEqual([
      { name: 'x', required: false },
      { name: 'q', required: false },
      { name: 'page', required: false },
      { name: 'more', required: false },
      { name: 'frag', required: false },
    ]);
  });

  it('requires a variable that is in a path expansion anywhere, even after a query expansion of it', () => {
    // The explorer's own parser took the first expression's operator: `id` was optional, then sending failed.
    expect(formVariables(templated('/a{?id}{/id}'))).toEqual([{ name: 'id', required: true }]);
  });

  it('lists each variable once, in order, without its modifiers', () => {
    expect(formVariables(templated('/shops/{shop_id}/p/{id}{?q,page}{&shop_id}{/list*}{var:3}'))).toEqual([
      { name: 'shop_id', required: true },
      { name: 'id', required: true },
      { name: 'q', required: false },
      { name: 'page', required: false },
      { name: 'list', required: true },
      { name: 'var', required: true },
    ]);
  });

  it.each([
    '/shops/{shop_id}/themes{?page}',
    '/a{;x,y}{#f}',
    '/a{.fmt}{?q}{&r}',
    '/a{?id}{/id}',
    '/a{+base}/b{/c*}{;d:2}',
  ])('marks required exactly the variables the SDK cannot expand %s without', (href) => {
    const variables = formVariables(templated(href));
    expect(variables.length).toBeGreaterThan(0);
    for (const { name, required } of variables) expect(required, name).toBe(!expandsWithout(href, name));
  });

  it('has no fields for a link that is not templated, nor for a malformed template', () => {
    expect(formVariables({ href: '/a/{id}', templated: false })).toEqual([]);
    for (const href of ['/a/{id', '/{a b}', '/{}', '/{a{b}']) expect(formVariables(templated(href)), href).toEqual([]);
  });
});
