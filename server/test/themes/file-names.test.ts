import { describe, expect, it } from 'vitest';
import { parseFilePath } from '../../src/api/themes/file-path.js';
import {
  checkTemplateBody,
  isDeletableTemplate,
  MAX_TEMPLATE_BYTES,
  parseTemplateFileName,
} from '../../src/api/themes/template.js';

describe('template file names', () => {
  it.each([
    ['layout.html', 'layout', 'html'],
    ['partials/cart.html', 'partials/cart', 'html'],
    ['styles.min.css', 'styles.min', 'css'],
    ['js/app_v-2.JS', 'js/app_v-2', 'js'],
  ])('accepts %s (name %s, content type %s)', (fileName, name, contentType) => {
    expect(parseTemplateFileName(fileName)).toEqual({ file_name: fileName, name, content_type: contentType });
  });

  it.each([
    ['', 'empty'],
    ['../layout.html', 'parent segment'],
    ['./layout.html', 'current segment'],
    ['a/../b.html', 'parent segment inside'],
    ['/layout.html', 'absolute path'],
    ['partials//cart.html', 'empty segment'],
    ['partials/', 'trailing slash'],
    ['a/b/c.html', 'three segments'],
    ['..%2Flayout.html', 'encoded slash'],
    ['partials\\cart.html', 'backslash'],
    ['layout.html\0.png', 'NUL'],
    ['lay out.html', 'space'],
    ['layout.php', 'unknown extension'],
    ['layout', 'no extension'],
    ['.html', 'no stem'],
    ['caf\u00e9.html', 'non-ASCII letter'],
    [`${'a'.repeat(200)}.html`, 'too long'],
  ])('rejects %j (%s)', (fileName) => {
    expect(typeof parseTemplateFileName(fileName)).toBe('string');
  });

  it.each([42, null, undefined, ['layout.html'], { toString: () => 'layout.html' }])('rejects a non-string %j', (v) => {
    expect(parseTemplateFileName(v)).toBe('must be a string');
  });

  it('splits any valid path at its last dot, lower-casing the extension', () => {
    expect(parseFilePath('img/Logo.Big.PNG')).toEqual({
      fileName: 'img/Logo.Big.PNG',
      stem: 'img/Logo.Big',
      extension: 'png',
    });
  });
});

describe('template bodies', () => {
  it('accepts up to 64 KiB of UTF-8', () => {
    expect(() => checkTemplateBody('')).not.toThrow();
    expect(() => checkTemplateBody('a'.repeat(MAX_TEMPLATE_BYTES))).not.toThrow();
    // 3 bytes each in UTF-8: the limit counts bytes, not characters.
    expect(() => checkTemplateBody('\u20ac'.repeat(Math.floor(MAX_TEMPLATE_BYTES / 3)))).not.toThrow();
  });

  it('answers 413 past 64 KiB', () => {
    const tooLarge = expect.objectContaining({ status: 413 });
    expect(() => checkTemplateBody('a'.repeat(MAX_TEMPLATE_BYTES + 1))).toThrow(tooLarge);
    expect(() => checkTemplateBody('\u20ac'.repeat(Math.floor(MAX_TEMPLATE_BYTES / 3) + 1))).toThrow(tooLarge);
  });

  it('keeps layout.html and only it', () => {
    expect(isDeletableTemplate('layout.html')).toBe(false);
    expect(isDeletableTemplate('partials/layout.html')).toBe(true);
  });
});
