/**
 * Every example of RFC 6570 (sections 1.2, 2.4.1, 2.4.2 and 3.2.1–3.2.9, all four levels), expanded as the RFC
 * says (`strict` off), and what the SDK's default refuses instead.
 */
import { describe, expect, it } from 'vitest';
import { TemplateVariableError } from '../src/errors/template-variable-error.js';
import { expandTemplate } from '../src/resource/uri-template.js';

/** The variables of §3.2.1 (also those of §1.2 and §2.4), `keys` in its order. */
const vars = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: undefined,
  semi: ';',
  year: ['1965', '2000', '2012'],
};

const examples: Record<string, [template: string, expansion: string][]> = {
  '1.2 level 1': [
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
  ],
  '1.2 level 2': [
    ['{+var}', 'value'],
    ['{+hello}', 'Hello%20World!'],
    ['{+path}/here', '/foo/bar/here'],
    ['here?ref={+path}', 'here?ref=/foo/bar'],
    ['X{#var}', 'X#value'],
    ['X{#hello}', 'X#Hello%20World!'],
  ],
  '1.2 level 3': [
    ['map?{x,y}', 'map?1024,768'],
    ['{x,hello,y}', '1024,Hello%20World%21,768'],
    ['{+x,hello,y}', '1024,Hello%20World!,768'],
    ['{+path,x}/here', '/foo/bar,1024/here'],
    ['{#x,hello,y}', '#1024,Hello%20World!,768'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    ['X{.var}', 'X.value'],
    ['X{.x,y}', 'X.1024.768'],
    ['{/var}', '/value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;x,y}', ';x=1024;y=768'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y}', '?x=1024&y=768'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{&x,y,empty}', '&x=1024&y=768&empty='],
  ],
  '1.2 level 4': [
    ['{var:3}', 'val'],
    ['{var:30}', 'value'],
    ['{list}', 'red,green,blue'],
    ['{list*}', 'red,green,blue'],
    ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
    ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
    ['{+path:6}/here', '/foo/b/here'],
    ['{+list}', 'red,green,blue'],
    ['{+list*}', 'red,green,blue'],
    ['{+keys}', 'semi,;,dot,.,comma,,'],
    ['{+keys*}', 'semi=;,dot=.,comma=,'],
    ['{#path:6}/here', '#/foo/b/here'],
    ['{#list}', '#red,green,blue'],
    ['{#list*}', '#red,green,blue'],
    ['{#keys}', '#semi,;,dot,.,comma,,'],
    ['{#keys*}', '#semi=;,dot=.,comma=,'],
    ['X{.var:3}', 'X.val'],
    ['X{.list}', 'X.red,green,blue'],
    ['X{.list*}', 'X.red.green.blue'],
    ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
    ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
    ['{/var:1,var}', '/v/value'],
    ['{/list}', '/red,green,blue'],
    ['{/list*}', '/red/green/blue'],
    ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
    ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
    ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
    ['{;hello:5}', ';hello=Hello'],
    ['{;list}', ';list=red,green,blue'],
    ['{;list*}', ';list=red;list=green;list=blue'],
    ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
    ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
    ['{?var:3}', '?var=val'],
    ['{?list}', '?list=red,green,blue'],
    ['{?list*}', '?list=red&list=green&list=blue'],
    ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
    ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
    ['{&var:3}', '&var=val'],
    ['{&list}', '&list=red,green,blue'],
    ['{&list*}', '&list=red&list=green&list=blue'],
    ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
    ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
  ],
  '2.4.1 prefix values': [
    ['{var}', 'value'],
    ['{var:20}', 'value'],
    ['{var:3}', 'val'],
    ['{semi}', '%3B'],
    ['{semi:2}', '%3B'],
  ],
  '2.4.2 composite values': [
    ['find{?year*}', 'find?year=1965&year=2000&year=2012'],
    ['www{.dom*}', 'www.example.com'],
  ],
  '3.2.2 simple string expansion': [
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{half}', '50%25'],
    ['O{empty}X', 'OX'],
    ['O{undef}X', 'OX'],
    ['{x,y}', '1024,768'],
    ['{x,hello,y}', '1024,Hello%20World%21,768'],
    ['?{x,empty}', '?1024,'],
    ['?{x,undef}', '?1024'],
    ['?{undef,y}', '?768'],
    ['{var:3}', 'val'],
    ['{var:30}', 'value'],
    ['{list}', 'red,green,blue'],
    ['{list*}', 'red,green,blue'],
    ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
    ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  ],
  '3.2.3 reserved expansion': [
    ['{+var}', 'value'],
    ['{+hello}', 'Hello%20World!'],
    ['{+half}', '50%25'],
    ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
    ['{+base}index', 'http://example.com/home/index'],
    ['O{+empty}X', 'OX'],
    ['O{+undef}X', 'OX'],
    ['{+path}/here', '/foo/bar/here'],
    ['here?ref={+path}', 'here?ref=/foo/bar'],
    ['up{+path}{var}/here', 'up/foo/barvalue/here'],
    ['{+x,hello,y}', '1024,Hello%20World!,768'],
    ['{+path,x}/here', '/foo/bar,1024/here'],
    ['{+path:6}/here', '/foo/b/here'],
    ['{+list}', 'red,green,blue'],
    ['{+list*}', 'red,green,blue'],
    ['{+keys}', 'semi,;,dot,.,comma,,'],
    ['{+keys*}', 'semi=;,dot=.,comma=,'],
  ],
  '3.2.4 fragment expansion': [
    ['{#var}', '#value'],
    ['{#hello}', '#Hello%20World!'],
    ['{#half}', '#50%25'],
    ['foo{#empty}', 'foo#'],
    ['foo{#undef}', 'foo'],
    ['{#x,hello,y}', '#1024,Hello%20World!,768'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    ['{#path:6}/here', '#/foo/b/here'],
    ['{#list}', '#red,green,blue'],
    ['{#list*}', '#red,green,blue'],
    ['{#keys}', '#semi,;,dot,.,comma,,'],
    ['{#keys*}', '#semi=;,dot=.,comma=,'],
  ],
  '3.2.5 label expansion': [
    ['{.who}', '.fred'],
    ['{.who,who}', '.fred.fred'],
    ['{.half,who}', '.50%25.fred'],
    ['www{.dom*}', 'www.example.com'],
    ['X{.var}', 'X.value'],
    ['X{.empty}', 'X.'],
    ['X{.undef}', 'X'],
    ['X{.var:3}', 'X.val'],
    ['X{.list}', 'X.red,green,blue'],
    ['X{.list*}', 'X.red.green.blue'],
    ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
    ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
    ['X{.empty_keys}', 'X'],
    ['X{.empty_keys*}', 'X'],
  ],
  '3.2.6 path segment expansion': [
    ['{/who}', '/fred'],
    ['{/who,who}', '/fred/fred'],
    ['{/half,who}', '/50%25/fred'],
    ['{/who,dub}', '/fred/me%2Ftoo'],
    ['{/var}', '/value'],
    ['{/var,empty}', '/value/'],
    ['{/var,undef}', '/value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{/var:1,var}', '/v/value'],
    ['{/list}', '/red,green,blue'],
    ['{/list*}', '/red/green/blue'],
    ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
    ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
    ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  ],
  '3.2.7 path-style parameter expansion': [
    ['{;who}', ';who=fred'],
    ['{;half}', ';half=50%25'],
    ['{;empty}', ';empty'],
    ['{;v,empty,who}', ';v=6;empty;who=fred'],
    ['{;v,bar,who}', ';v=6;who=fred'],
    ['{;x,y}', ';x=1024;y=768'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{;x,y,undef}', ';x=1024;y=768'],
    ['{;hello:5}', ';hello=Hello'],
    ['{;list}', ';list=red,green,blue'],
    ['{;list*}', ';list=red;list=green;list=blue'],
    ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
    ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  ],
  '3.2.8 form-style query expansion': [
    ['{?who}', '?who=fred'],
    ['{?half}', '?half=50%25'],
    ['{?x,y}', '?x=1024&y=768'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['{?x,y,undef}', '?x=1024&y=768'],
    ['{?var:3}', '?var=val'],
    ['{?list}', '?list=red,green,blue'],
    ['{?list*}', '?list=red&list=green&list=blue'],
    ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
    ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  ],
  '3.2.9 form-style query continuation': [
    ['{&who}', '&who=fred'],
    ['{&half}', '&half=50%25'],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{&x,y,empty}', '&x=1024&y=768&empty='],
    ['{&var:3}', '&var=val'],
    ['{&list}', '&list=red,green,blue'],
    ['{&list*}', '&list=red&list=green&list=blue'],
    ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
    ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
  ],
};

const all = Object.entries(examples).flatMap(([section, list]) => list.map(([t, e]) => [section, t, e] as const));

/** Variables of path-like expressions (`{x}`, `{+x}`, `{.x}`, `{/x}`) that expand to nothing with `vars`. */
function emptyPathVariables(template: string): string[] {
  const names = [...template.matchAll(/\{([+./]?)(\w[^}]*)\}/g)].flatMap(([, , list]) =>
    list!.split(',').map((spec) => spec.replace(/[:*].*$/, '')),
  );
  return names.filter((name) => {
    const value = vars[name as keyof typeof vars];
    return value === undefined || value === '' || (typeof value === 'object' && Object.keys(value).length === 0);
  });
}

describe('RFC 6570 examples', () => {
  it('has every example of the sections it names', () => {
    expect(all.length).toBe(178);
  });

  it.each(all)('§%s: %s → %s (strict off: the RFC to the letter)', (_section, template, expansion) => {
    expect(expandTemplate(template, vars, false).url).toBe(expansion);
  });

  it.each(all)(
    '§%s: %s by default: the same, or a TemplateVariableError for an empty path variable',
    (_s, template, expansion) => {
      const empty = emptyPathVariables(template);
      if (empty.length === 0) {
        expect(expandTemplate(template, vars).url).toBe(expansion);
        return;
      }
      let thrown: unknown;
      try {
        expandTemplate(template, vars);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TemplateVariableError);
      expect((thrown as TemplateVariableError).variables).toEqual(empty);
    },
  );

  it('departs from the RFC only for path variables that expand to nothing, and only while strict', () => {
    // §3.2.2: "O{empty}X" is "OX": by default it throws, since /products/{id} with '' would name the list.
    expect(() => expandTemplate('O{empty}X', { empty: '' })).toThrowError(TemplateVariableError);
    expect(expandTemplate('O{empty}X', { empty: '' }, false).url).toBe('OX');
    expect(expandTemplate('/products/{id}', {}, false).url).toBe('/products/');
    // Query-like expansions never throw: an empty value is a value there.
    expect(expandTemplate('/p{?q}', { q: '' }).url).toBe('/p?q=');
  });
});
