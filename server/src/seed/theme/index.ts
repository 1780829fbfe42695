/**
 * The files of a demo shop's production theme: `layout.html` plus pages, partials, stylesheets and scripts
 * that reference one another and the theme's images by relative path, so that a preview page resolves them.
 * The templates are modules rather than files read at run time: the seed also runs inside the MSW handlers in
 * a browser, where there is no file system.
 */
import { gif, png } from '../images.js';
import { mix, WHITE } from './colours.js';
import { layoutTemplates } from './layout.js';
import { pageTemplates } from './pages.js';
import { scriptTemplates } from './scripts.js';
import { styleTemplates } from './styles.js';
import type { ThemeFile, ThemeImage, ThemeShop } from './types.js';

export type { ThemeFile, ThemeImage, ThemeShop } from './types.js';

/** The templates of `shop`'s theme, `layout.html` first. */
export function themeTemplates(shop: ThemeShop): ThemeFile[] {
  return [...layoutTemplates(shop), ...pageTemplates(shop), ...styleTemplates(shop), ...scriptTemplates()];
}

/** Logo, banner, favicon, loading spinner and product placeholder, drawn in the shop's colours when asked. */
export function themeImages(shop: ThemeShop): ThemeImage[] {
  const accent = shop.accent;
  const light = mix(accent, WHITE, 0.7);
  const pngFile = (file_name: string, draw: () => Uint8Array) => ({ file_name, content_type: 'image/png', draw });
  const gifFile = (file_name: string, draw: () => Uint8Array) => ({ file_name, content_type: 'image/gif', draw });
  return [
    pngFile('images/logo.png', () =>
      png(48, 48, (x, y) => ((x - 24) ** 2 + (y - 24) ** 2 < 400 ? ((x + y) % 12 < 6 ? accent : light) : WHITE)),
    ),
    pngFile('images/banner.png', () => png(160, 48, (x, y) => mix(accent, WHITE, (x / 160) * 0.6 + (y / 48) * 0.2))),
    pngFile('images/favicon.png', () => png(16, 16, (x, y) => (x > 2 && x < 13 && y > 2 && y < 13 ? accent : WHITE))),
    gifFile('images/spinner.gif', () =>
      gif(16, 16, [WHITE, accent, light], (x, y) => ((x - 8) ** 2 + (y - 8) ** 2 < 49 ? (x < 8 ? 1 : 2) : 0)),
    ),
    gifFile('images/placeholder.gif', () => gif(24, 24, [light, WHITE], (x, y) => ((x + y) % 8 < 4 ? 0 : 1))),
  ];
}
