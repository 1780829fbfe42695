/** A product in detail, by the root's `svc:product` template: its description and its variants. */
import { useFollow } from '@storefront-platform/react';
import type { Root } from '@storefront-platform/sdk';
import { ErrorNote } from './ErrorNote.js';
import { price } from './price.js';
import { href } from './route.js';

export function ProductPage({ root, shopId, id }: { root: Root; shopId: string; id: string }) {
  const product = useFollow(root, 'svc:product', { shop_id: shopId, id });
  if (product.error) return <ErrorNote error={product.error} />;
  if (!product.data) return <p role="status">Loading…</p>;
  const { title, description, vendor, tags, currency_code: currency } = product.data.properties;
  const variants = product.data.embedded('variants');
  return (
    <article className="product">
      <a href={href({ page: 'products' })}>← All products</a>
      <h1>{title}</h1>
      <p className="vendor">
        {vendor} · {tags.join(', ')}
      </p>
      <p>{description}</p>
      <table>
        <thead>
          <tr>
            <th>Variant</th>
            <th>Stock</th>
            <th>Price</th>
          </tr>
        </thead>
        <tbody>
          {variants.map((variant) => (
            <tr key={variant.properties.id}>
              <td>{variant.properties.title}</td>
              <td>{variant.properties.stock}</td>
              <td>{price(variant.properties.price, currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
