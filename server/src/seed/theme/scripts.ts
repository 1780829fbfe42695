import type { ThemeFile } from './types.js';

/** The scripts: progressive enhancement and a cart kept in localStorage. */
export function scriptTemplates(): ThemeFile[] {
  return [
    {
      file_name: 'scripts/app.js',
      body: `// Progressive enhancement of the static pages: the site works without it.
document.addEventListener('DOMContentLoaded', () => {
  document.querySelector('.loading')?.remove();
  for (const form of document.querySelectorAll('[data-newsletter]')) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      form.replaceChildren(Object.assign(document.createElement('p'), { textContent: 'Thank you for subscribing!' }));
    });
  }
  const filters = document.querySelector('[data-filters]');
  filters?.addEventListener('change', () => filters.requestSubmit());
});
`,
    },
    {
      file_name: 'scripts/cart.js',
      body: `// A cart kept in localStorage, so that the demo needs no server session. Where storage is refused (a
// sandboxed preview has an opaque origin, where merely reading localStorage throws), the cart lives as long
// as the page.
const KEY = 'cart';
let kept = [];
const read = () => {
  try {
    const items = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(items) ? items : [];
  } catch {
    return kept;
  }
};
const write = (items) => {
  kept = items;
  try {
    localStorage.setItem(KEY, JSON.stringify(items));
  } catch {
    // No storage here: the in-page cart above is all there is.
  }
  for (const badge of document.querySelectorAll('[data-cart-count]')) {
    badge.textContent = String(items.reduce((n, item) => n + item.quantity, 0));
  }
};
document.addEventListener('DOMContentLoaded', () => {
  write(read());
  for (const form of document.querySelectorAll('[data-add-to-cart]')) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const data = new FormData(form);
      write([...read(), { variant: data.get('variant'), quantity: Number(data.get('quantity')) || 1 }]);
    });
  }
});
`,
    },
  ];
}
