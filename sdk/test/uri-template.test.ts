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

  it('encodes characters outside the Basic Multilingual Plane as their UTF-8 bytes, whole', () => {
    expect(expandTemplate('/p{?q}', { q: '😀 𠀋' }).url).toBe('/p?q=%F0%9F%98%80%20%F0%A0%80%8B');
    expect(expandTemplate('/p{/id}', { id: 'café' }).url).toBe('/p/caf%C3%A9');
    // A prefix counts characters, not UTF-16 units: the emoji is kept whole or not at all.
    expect(expandTemplate('/p{?q:2}', { q: 'a😀b' }).url).toBe('/p?q=a%F0%9F%98%80');
    expect(expandTemplate('/ü/{id}', { id: 1 }).url).toBe('/%C3%BC/1');
  });

  it('keeps percent-encoded triplets in reserved and fragment expansions, and encodes a lone %', () => {
    expect(expandTemplate('/{+id}', { id: 'admin%2F' }).url).toBe('/admin%2F');
    expect(expandTemplate('/a{#f}', { f: 'x%2Fy%zz' }).url).toBe('/a#x%2Fy%25zz');
    expect(expandTemplate('/{+list}', { list: ['a%20b', 'c'] }).url).toBe('/a%20b,c');
    expect(expandTemplate('/{id}', { id: 'admin%2F' }).url).toBe('/admin%252F');
  });

  it('expands maps, exploded or not, and refuses a prefix of a list or map', () => {
    const keys = { semi: ';', dot: '.', empty: '' };
    expect(expandTemplate('/x{?keys}', { keys }).url).toBe('/x?keys=semi,%3B,dot,.,empty,');
    expect(expandTemplate('/x{?keys*}', { keys }).url).toBe('/x?semi=%3B&dot=.&empty=');
    expect(expandTemplate('/x{;keys*}', { keys }).url).toBe('/x;semi=%3B;dot=.;empty');
    expect(expandTemplate('/x{/keys*}', { keys }).url).toBe('/x/semi=%3B/dot=./empty=');
    expect(expandTemplate('/x{?keys}', { keys: {} }).url).toBe('/x');
    expect(() => expandTemplate('/x{?keys:1}', { keys })).toThrowError(TypeError);
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
    // Values that would expand to nothing and leave a wrong URL behind.
    for (const shop_id of [[], {}, new Date(0)]) {
      expect(() => expandTemplate('/shops/{shop_id}', { shop_id })).toThrowError(/shop_id/);
    }
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
