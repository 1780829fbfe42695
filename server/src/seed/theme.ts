/**
 * The files of a demo shop's production theme: `layout.html` plus pages, partials, stylesheets and scripts
 * that reference one another and the theme's images by relative path, so that a preview page resolves them.
 */
import { gif, png, type Rgb } from './images.js';

/** What a theme's files are drawn for. */
export interface ThemeShop {
  name: string;
  description: string;
  locale: string;
  currency_code: string;
  /** Brand colour of the shop. */
  accent: Rgb;
}

export interface ThemeFile {
  file_name: string;
  body: string;
}

export interface ThemeImage {
  file_name: string;
  content_type: string;
  /** Draws the file's bytes (a few milliseconds: the seed defers it until the bytes are read). */
  draw: () => Uint8Array;
}

const hex = ([r, g, b]: Rgb) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [0, 1, 2].map((i) => Math.round(a[i]! + (b[i]! - a[i]!) * t)) as never;
const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [34, 34, 40];

export function themeTemplates(shop: ThemeShop): ThemeFile[] {
  const accent = hex(shop.accent);
  const soft = hex(mix(shop.accent, WHITE, 0.85));
  const lang = shop.locale.slice(0, 2);
  return [
    {
      file_name: 'layout.html',
      body: `<!doctype html>
<html lang="${lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${shop.name}</title>
  <meta name="description" content="${shop.description}">
  <link rel="icon" href="images/favicon.png" type="image/png">
  <link rel="stylesheet" href="styles/theme.css">
  <link rel="stylesheet" href="styles/print.css" media="print">
  <script src="scripts/app.js" defer></script>
  <script src="scripts/cart.js" defer></script>
</head>
<body class="layout">
  <header class="site-header">
    <a class="brand" href="index.html"><img src="images/logo.png" alt="${shop.name}" width="48" height="48"> ${shop.name}</a>
    <nav class="site-nav">
      <a href="products.html">Products</a>
      <a href="page.html">About us</a>
      <a href="cart.html" class="cart-link">Cart <span data-cart-count>0</span></a>
    </nav>
  </header>
  <section class="hero">
    <img src="images/banner.png" alt="" class="hero-image">
    <div class="hero-text">
      <h1>${shop.name}</h1>
      <p>${shop.description}</p>
      <a class="button" href="products.html">Shop now</a>
    </div>
  </section>
  <main id="content">
    <p class="loading"><img src="images/spinner.gif" alt="" width="16" height="16"> Loading…</p>
  </main>
  <footer class="site-footer">
    <p>&copy; ${shop.name}. Prices in ${shop.currency_code}.</p>
  </footer>
</body>
</html>
`,
    },
    {
      file_name: 'index.html',
      body: `<section class="featured">
  <h2>Featured this week</h2>
  <ul class="product-grid" data-collection="featured" data-limit="8"></ul>
</section>
<section class="newsletter">
  <h2>Stay in touch</h2>
  <form action="#" method="post" data-newsletter>
    <label for="email">Email</label>
    <input id="email" name="email" type="email" required placeholder="you@example.com">
    <button class="button" type="submit">Subscribe</button>
  </form>
</section>
`,
    },
    {
      file_name: 'products.html',
      body: `<section class="catalog">
  <h1>All products</h1>
  <form class="filters" data-filters>
    <input type="search" name="q" placeholder="Search products">
    <select name="sort">
      <option value="updated_on.desc">Newest</option>
      <option value="price.asc">Price, low to high</option>
      <option value="price.desc">Price, high to low</option>
    </select>
  </form>
  <ul class="product-grid" data-collection="all" data-per-page="24"></ul>
  <nav class="pagination" aria-label="Pages"><a rel="prev" href="#">Previous</a> <a rel="next" href="#">Next</a></nav>
</section>
`,
    },
    {
      file_name: 'product.html',
      body: `<article class="product" itemscope itemtype="https://schema.org/Product">
  <div class="product-media"><img src="images/placeholder.gif" alt="" itemprop="image"></div>
  <div class="product-info">
    <h1 itemprop="name" data-field="title"></h1>
    <p class="price"><span data-field="price"></span> <del data-field="price_comparison"></del></p>
    <div itemprop="description" data-field="description"></div>
    <form class="add-to-cart" data-add-to-cart>
      <label for="variant">Option</label>
      <select id="variant" name="variant" data-field="variants"></select>
      <label for="quantity">Quantity</label>
      <input id="quantity" name="quantity" type="number" min="1" value="1">
      <button class="button" type="submit">Add to cart</button>
    </form>
  </div>
</article>
`,
    },
    {
      file_name: 'cart.html',
      body: `<section class="cart">
  <h1>Your cart</h1>
  <table class="cart-items" data-cart-items>
    <thead><tr><th>Product</th><th>Quantity</th><th>Price</th><th></th></tr></thead>
    <tbody></tbody>
    <tfoot><tr><th colspan="2">Total</th><td data-cart-total></td><td></td></tr></tfoot>
  </table>
  <p class="cart-empty" hidden>Your cart is empty. <a href="products.html">Keep shopping</a>.</p>
  <a class="button" href="checkout.html">Checkout</a>
</section>
`,
    },
    {
      file_name: 'checkout.html',
      body: `<section class="checkout">
  <h1>Checkout</h1>
  <form data-checkout>
    <fieldset>
      <legend>Contact</legend>
      <input name="name" autocomplete="name" required placeholder="Full name">
      <input name="email" type="email" autocomplete="email" required placeholder="Email">
    </fieldset>
    <fieldset>
      <legend>Shipping address</legend>
      <input name="street" autocomplete="street-address" required placeholder="Street">
      <input name="postcode" autocomplete="postal-code" required placeholder="Postcode">
      <input name="city" autocomplete="address-level2" required placeholder="City">
    </fieldset>
    <button class="button" type="submit">Place order</button>
  </form>
</section>
`,
    },
    {
      file_name: 'page.html',
      body: `<article class="page">
  <h1>About ${shop.name}</h1>
  <p>${shop.description}</p>
  <p>We ship within two working days and take returns for thirty days, no questions asked.</p>
  <img src="images/logo.png" alt="" width="48" height="48">
</article>
`,
    },
    {
      file_name: '404.html',
      body: `<section class="not-found">
  <h1>Page not found</h1>
  <p>The page you were looking for has moved or never existed. <a href="index.html">Back to the shop</a>.</p>
</section>
`,
    },
    {
      file_name: 'partials/product-card.html',
      body: `<li class="product-card">
  <a href="product.html" data-field="url">
    <img src="images/placeholder.gif" alt="" loading="lazy">
    <h3 data-field="title"></h3>
    <p class="price" data-field="price"></p>
  </a>
</li>
`,
    },
    {
      file_name: 'partials/newsletter.html',
      body: `<aside class="newsletter-note">
  <p>Ten percent off your first order when you subscribe.</p>
</aside>
`,
    },
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
