import type { ThemeFile, ThemeShop } from './types.js';

/** The pages and partials shown inside the layout: home, catalogue, product, cart, checkout, about, 404. */
export function pageTemplates(shop: ThemeShop): ThemeFile[] {
  return [
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
  ];
}
