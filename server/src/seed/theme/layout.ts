import type { ThemeFile, ThemeShop } from './types.js';

/** `layout.html`: the page every other page is shown in, referencing the stylesheets, scripts and images. */
export function layoutTemplates(shop: ThemeShop): ThemeFile[] {
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
  ];
}
