/**
 * References from a template to another file of the theme: `src`, `href`, `srcset`, `poster` and `data` in HTML,
 * `url(…)` and `@import` in CSS. The preview serves a theme's templates and assets by file name under one folder,
 * and pages are rendered into `layout.html`, whose `<base href>` is that folder: so an HTML template's relative
 * reference is a file name from the theme's root (`images/logo.png`, `partials/cart.html`), while a stylesheet's
 * is relative to the stylesheet itself, as browsers resolve it. Addresses elsewhere (a scheme, `//host`, `/path`,
 * `#fragment`) and template expressions (`{{ … }}`) are not the theme's files and are not checked.
 */
import { locator, type TextProblem } from './check-html.js';

const HTML_REFERENCE = /\s(src|href|srcset|poster|data)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
const CSS_REFERENCE = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/gi;

/** The theme file name a reference means, or `undefined` when it points outside the theme. */
function fileNameOf(reference: string, folder: string): string | undefined {
  const value = reference.trim();
  if (!value || /^[a-z][a-z0-9+.-]*:|^\/|^#|^\?|\{\{|\{%|\$\{/i.test(value)) return undefined;
  const path = value.replace(/[?#].*$/, '');
  if (!path) return undefined;
  const segments: string[] = folder ? folder.split('/') : [];
  for (const segment of decodeURIComponentSafe(path).split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The candidates of a `srcset`: each URL before its size. */
function srcsetUrls(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim().split(/\s+/)[0] ?? '')
    .filter(Boolean);
}

/**
 * References of template `name` (its text `text`) to files the theme lacks; `exists` says whether a file name is
 * a template or an asset of the theme.
 */
export function missingReferences(name: string, text: string, exists: (fileName: string) => boolean): TextProblem[] {
  const at = locator(text);
  const problems: TextProblem[] = [];
  const css = name.toLowerCase().endsWith('.css');
  const folder = css ? name.split('/').slice(0, -1).join('/') : '';
  const pattern = css ? CSS_REFERENCE : HTML_REFERENCE;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const values = css
      ? [match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5] ?? '']
      : match[1]!.toLowerCase() === 'srcset'
        ? srcsetUrls(match[2] ?? match[3] ?? match[4] ?? '')
        : [match[2] ?? match[3] ?? match[4] ?? ''];
    for (const value of values) {
      const target = fileNameOf(value, folder);
      if (target === undefined || exists(target)) continue;
      const what = target.endsWith('.html') ? 'template' : 'file';
      problems.push({
        ...at(match.index + (css ? 0 : 1)),
        message: `references ${value}: no such ${what} in the theme`,
      });
    }
  }
  return problems;
}
