import { hex, INK, mix, WHITE } from './colours.js';
import type { ThemeFile, ThemeShop } from './types.js';

/** The stylesheets, in the shop's colours. */
export function styleTemplates(shop: ThemeShop): ThemeFile[] {
  const accent = hex(shop.accent);
  const soft = hex(mix(shop.accent, WHITE, 0.85));
  return [
    {
      file_name: 'styles/theme.css',
      body: `:root {
  --accent: ${accent};
  --accent-soft: ${soft};
  --ink: ${hex(INK)};
  --radius: 6px;
  font-family: system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--ink);
}
body { margin: 0; line-height: 1.5; }
.site-header { display: flex; justify-content: space-between; align-items: center; padding: 1rem 2rem; border-bottom: 3px solid var(--accent); }
.brand { display: flex; gap: .75rem; align-items: center; font-weight: 700; color: inherit; text-decoration: none; }
.site-nav a { margin-left: 1.5rem; color: var(--ink); }
.hero { position: relative; background: var(--accent-soft); }
.hero-image { display: block; width: 100%; height: 240px; object-fit: cover; }
.hero-text { position: absolute; inset: auto 2rem 2rem; color: #fff; text-shadow: 0 1px 3px rgb(0 0 0 / .5); }
.button { display: inline-block; padding: .6rem 1.2rem; border: 0; border-radius: var(--radius); background: var(--accent); color: #fff; text-decoration: none; cursor: pointer; }
.product-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 1.5rem; padding: 0; list-style: none; }
.product-card img { width: 100%; aspect-ratio: 1; background: var(--accent-soft); }
.price del { color: #888; }
main { max-width: 72rem; margin: 2rem auto; padding: 0 2rem; }
.site-footer { padding: 2rem; text-align: center; background: var(--accent-soft); }
`,
    },
    {
      file_name: 'styles/print.css',
      body: `.site-nav, .hero, .add-to-cart, .newsletter { display: none; }
body { color: #000; }
a[href]::after { content: " (" attr(href) ")"; font-size: .8em; }
`,
    },
  ];
}
