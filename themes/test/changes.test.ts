/** The three-way comparison behind status, push and pull, and how the folder's files map to the API's. */
import { describe, expect, it } from 'vitest';
import { compare, settle } from '../src/theme/changes.js';
import { fileAt, pathOf } from '../src/theme/layout.js';
import type { LocalFile } from '../src/theme/local.js';
import type { BaseEntry } from '../src/theme/manifest.js';
import type { RemoteFile } from '../src/theme/remote.js';

const base = (path: string, md5: string): BaseEntry => ({
  kind: 'template',
  name: path,
  id: path,
  updated_on: 'then',
  md5,
});
const local = (path: string, md5: string): [string, LocalFile] => [path, { kind: 'template', name: path, path, md5 }];
const remote = (path: string, md5: string): [string, RemoteFile] => [
  path,
  {
    kind: 'template',
    name: path,
    path,
    id: `${path}#2`,
    updated_on: 'now',
    md5,
    entity: { toJSON: () => ({ _links: { self: { href: `/${path}` } } }) } as never,
  },
];

describe('compare', () => {
  const was = {
    same: base('same', 'a'),
    mine: base('mine', 'a'),
    theirs: base('theirs', 'a'),
    both: base('both', 'a'),
    alike: base('alike', 'a'),
    gone: base('gone', 'a'),
    removed: base('removed', 'a'),
  };
  const here = new Map([
    local('same', 'a'),
    local('mine', 'b'),
    local('theirs', 'a'),
    local('both', 'b'),
    local('alike', 'c'),
    local('removed', 'a'),
    local('new-here', 'x'),
    local('new-both', 'y'),
  ]);
  const there = new Map([
    remote('same', 'a'),
    remote('mine', 'a'),
    remote('theirs', 'c'),
    remote('both', 'c'),
    remote('alike', 'c'),
    remote('new-there', 'z'),
    remote('new-both', 'w'),
  ]);

  it('tells each side apart, and a change made differently on both sides is a conflict', () => {
    // `same` and `alike` (the same change on both sides) and `gone` (deleted on both) are no changes.
    const changes = Object.fromEntries(compare(was, here, there).map((c) => [c.path, [c.local, c.remote, c.conflict]]));
    expect(changes).toEqual({
      mine: ['changed', undefined, false],
      theirs: [undefined, 'changed', false],
      both: ['changed', 'changed', true],
      removed: [undefined, 'deleted', false],
      'new-here': ['added', undefined, false],
      'new-there': [undefined, 'added', false],
      'new-both': ['added', 'added', true],
    });
  });

  it('settles the base where both sides agree, and forgets files on neither', () => {
    const settled = settle(was, here, there);
    expect(settled.alike).toMatchObject({
      id: 'alike#2',
      updated_on: 'now',
      md5: 'c',
      links: { self: { href: '/alike' } },
    });
    expect(settled.same).toMatchObject({ id: 'same#2', md5: 'a' });
    expect(settled.mine).toEqual(was.mine);
    expect(settled.gone).toBeUndefined();
    expect(settled.removed).toEqual(was.removed);
  });
});

describe('the folder layout', () => {
  it.each([
    ['layout.html', { kind: 'template', name: 'layout.html' }],
    ['partials/cart.html', { kind: 'template', name: 'partials/cart.html' }],
    ['assets/app.css', { kind: 'template', name: 'assets/app.css' }],
    ['assets/logo.png', { kind: 'asset', name: 'logo.png' }],
    ['assets/images/logo.PNG', { kind: 'asset', name: 'images/logo.PNG' }],
  ])('%s is a theme file', (path, file) => {
    expect(fileAt(path)).toEqual({ ...file, path });
    expect(pathOf(file.kind as 'template' | 'asset', file.name)).toBe(path);
  });

  it.each([['README.md'], ['logo.png'], ['assets/notes.txt'], ['layout.html~'], ['4913']])(
    '%s is left alone',
    (path) => {
      expect(fileAt(path)).toBeUndefined();
    },
  );

  it.each([['a/b/c.html'], ['my page.html'], ['assets/a/b/c.png'], ['../x.css']])(
    '%s cannot be a file name',
    (path) => {
      expect(fileAt(path)).toBe('invalid');
    },
  );
});
