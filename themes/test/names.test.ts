/** The one name rule of local and remote files. */
import { describe, expect, it } from 'vitest';
import { fileAt, MAX_FILE_NAME_LENGTH, placeOf } from '../src/theme/layout.js';

describe('placeOf: a name from the server', () => {
  it.each([
    ['template', 'layout.html', 'layout.html'],
    ['template', 'partials/cart.html', 'partials/cart.html'],
    ['asset', 'images/logo.png', 'assets/images/logo.png'],
    ['asset', 'logo.PNG', 'assets/logo.PNG'],
  ] as const)('places the %s %s at %s', (kind, name, path) => {
    expect(placeOf(kind, name)).toEqual({ kind, name, path });
  });

  it.each([
    ['template', '../../evil-rel.html'],
    ['template', 'partials/../../../x.html'],
    ['template', 'ok/../../x.css'],
    ['asset', '../../../x.png'],
    ['asset', '../x.png'],
    ['template', '/etc/x.html'],
    ['template', 'a\\b.html'],
    ['template', '..\\x.html'],
    ['template', 'x\0.html'],
    ['template', '%2e%2e/x.html'],
    ['template', '..%2fx.html'],
    ['template', 'a/b/c.html'],
    ['template', 'a//b.html'],
    ['template', './x.html'],
    ['template', 'x .html'],
    ['template', ''],
    ['template', `${'a'.repeat(MAX_FILE_NAME_LENGTH)}.html`],
    ['template', 'logo.png'],
    ['asset', 'x.html'],
    ['asset', 'x.exe'],
    ['template', '.hidden.html'],
    ['template', '.git/x.html'],
    ['template', 'node_modules/x.js'],
  ] as const)('refuses the %s name %j', (kind, name) => {
    expect(placeOf(kind, name)).toEqual(expect.any(String));
  });

  it('refuses what is not a string', () => {
    for (const name of [undefined, null, 42, ['x.html'], { toString: () => 'x.html' }]) {
      expect(placeOf('template', name)).toBe('not a string');
    }
  });

  it("refuses Windows' device names on Windows only, where they are devices", () => {
    for (const name of ['con.html', 'partials/NUL.css', 'lpt1.js', 'aux.min.js']) {
      expect(placeOf('template', name, 'win32')).toEqual(expect.any(String));
      expect(placeOf('template', name, 'linux')).toMatchObject({ name });
    }
    expect(placeOf('template', 'console.html', 'win32')).toMatchObject({ name: 'console.html' });
  });

  it('is the rule of local files: a local path is a theme file exactly when its name is placed there', () => {
    for (const path of ['layout.html', 'partials/cart.html', 'assets/images/logo.png', 'a/b/c.html', 'x .css']) {
      const local = fileAt(path);
      const remote = typeof local === 'object' ? placeOf(local.kind, local.name) : undefined;
      expect(typeof remote === 'object' ? remote.path : 'invalid').toBe(typeof local === 'object' ? path : 'invalid');
    }
  });
});
