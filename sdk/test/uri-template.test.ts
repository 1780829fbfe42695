import { describe, expect, it } from 'vitest';
import { describeTemplateVariables, expandTemplate, templateVariables } from '../src/resource/uri-template.js';

/** Examples from RFC 6570 §3.2 (variables of §3.2.1). */
const vars = {
  var: 'value',
  hello: 'Hello World!',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  x: '1024',
  y: '768',
  empty: '',
};

describe('RFC 6570 expansion', () => {
  it.each([
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{+path}/here', '/foo/bar/here'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    ['X{.x,y}', 'X.1024.768'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{var:3}', 'val'],
    ['{list}', 'red,green,blue'],
    ['{list*}', 'red,green,blue'],
    ['{?list*}', '?list=red&list=green&list=blue'],
    ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ])('%s → %s', (template, expected) => {
    expect(expandTemplate(`http://a.test/${template}`, vars).url).toBe(`http://a.test/${expected}`);
  });

  it('lists the declared variables and returns the arguments it did not use', () => {
    expect(templateVariables('/shops/{shop_id}/products/{id}.json{?q,page}')).toEqual(['shop_id', 'id', 'q', 'page']);
    expect(expandTemplate('/t{?page}', { page: 2, body: 'x' })).toEqual({ url: '/t?page=2', unused: { body: 'x' } });
  });

  it('stringifies numbers and booleans, including inside lists, and omits null and undefined', () => {
    expect(expandTemplate('/p{?ids,flag,q,n}', { ids: [1, 2], flag: false, q: null, n: undefined }).url).toBe(
      '/p?ids=1,2&flag=false',
    );
  });

  it('requires path variables, not query variables', () => {
    expect(() => expandTemplate('/shops/{shop_id}{?q}', { q: 'x' })).toThrowError(
      expect.objectContaining({ code: 'TEMPLATE_VARIABLE', reason: 'missing', variables: ['shop_id'] }),
    );
    expect(() => expandTemplate('/shops/{shop_id}', { shop_id: '' })).toThrowError(/shop_id/);
  });

  it.each(['/a{b', '/a}b', '/{a b}', '/{a,}', '/{a:0}', '/{!a}'])('rejects the malformed template %s', (template) => {
    expect(() => expandTemplate(template, {})).toThrowError(TypeError);
  });
});

describe('describeTemplateVariables', () => {
  it('lists each variable once, with whether it is required (path, label and dot expansions)', () => {
    const template = '/shops/{shop_id}/products{.format}{/id}{;matrix}{?q,page}{&sort}{#part}{?id}';
    const described = describeTemplateVariables(template);
    expect(described).toEqual([
      { name: 'shop_id', required: true },
      { name: 'format', required: true },
      { name: 'id', required: true },
      { name: 'matrix', required: false },
      { name: 'q', required: false },
      { name: 'page', required: false },
      { name: 'sort', required: false },
      { name: 'part', required: false },
    ]);
    // What "not required" means: the template expands without them.
    expect(expandTemplate('/a{;matrix}{?q}{#part}', {}).url).toBe('/a');
    expect(() => expandTemplate('/a{.format}', {})).toThrow();
  });

  it('throws a TypeError for a malformed template', () => {
    expect(() => describeTemplateVariables('/a/{b c}')).toThrow(TypeError);
  });
});
