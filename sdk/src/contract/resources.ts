/**
 * Fields of every resource of the Storefront API: spec §2 plus the wire contract's decisions.
 * Timestamps are ISO 8601 UTC strings with milliseconds; ids are strings; money is integer cents.
 */

/** Scopes a token may carry (spec §5.6). */
export type Scope = 'admin' | 'public';

/** The entry point at `{base_url}`. */
export interface RootFields {
  /** Display name of the authorized user. */
  user_name: string;
  /** Role of the user on the platform, e.g. `admin`. */
  role: string;
  /** Comma-separated scopes of the token used. */
  scopes: string;
}

/** A shop as it appears inside lists and the root's `_embedded.shops`. */
export interface ShopSummaryFields {
  id: string;
  name: string;
  subdomain: string;
  /** The storefront's public URL. */
  url: string;
  currency_code: string;
  updated_on: string;
}

/** A shop's detail representation. */
export interface ShopFields extends ShopSummaryFields {
  description: string;
  /** BCP 47 language tag, e.g. `en-GB`. */
  locale: string;
}

/** Visibility of a product: hidden products are seen only by the shop's administrators. */
export type ProductStatus = 'visible' | 'hidden';

/** A product inside lists. */
export interface ProductSummaryFields {
  id: string;
  title: string;
  slug: string;
  /** Price in integer cents of the shop's currency. */
  price: number;
  status: ProductStatus;
  updated_on: string;
}

/** A product's detail representation. */
export interface ProductFields extends ProductSummaryFields {
  description: string;
  /** Former price in cents, shown struck through; null when none. */
  price_comparison: number | null;
  vendor: string;
  tags: string[];
  /** Units in stock over all variants. */
  stock: number;
  created_on: string;
  currency_code: string;
}

/** A variant of a product (embedded in the product detail as `variants`). */
export interface ProductVariantFields {
  id: string;
  title: string;
  sku: string;
  stock: number;
  /** Price in integer cents. */
  price: number;
}

/** Lifecycle of an order. */
export type OrderStatus = 'open' | 'pending' | 'paid' | 'shipped' | 'closed' | 'cancelled';

/** An order inside lists. */
export interface OrderSummaryFields {
  id: string;
  /** Human-facing order code, e.g. `A1B2C3`. */
  code: string;
  status: OrderStatus;
  /** Total in integer cents. */
  total: number;
  currency_code: string;
  created_on: string;
  updated_on: string;
}

/** Who placed an order. */
export interface OrderContact {
  name: string;
  email: string;
  phone?: string;
}

/** Where an order ships. */
export interface OrderAddress {
  street: string;
  city: string;
  postcode: string;
  country: string;
}

/** An order's detail representation (line items are embedded as `line_items`). */
export interface OrderFields extends OrderSummaryFields {
  contact: OrderContact;
  address: OrderAddress;
}

/** One line of an order. */
export interface OrderLineItemFields {
  id: string;
  product_id: string;
  variant_id: string;
  title: string;
  quantity: number;
  /** Unit price in integer cents. */
  unit_price: number;
  /** quantity × unit_price, in cents. */
  total: number;
}

/** A shop's design theme (spec §2.3). */
export interface ThemeFields {
  id: string;
  title: string;
  /** Whether this is the shop's production theme (false for the development theme). */
  production: boolean;
  /** Free-form theme settings. */
  settings: Record<string, unknown>;
  updated_on: string;
}

/** Short content type of a template, from its file extension. */
export type TemplateContentType = 'html' | 'css' | 'js';

/** An HTML, CSS or JavaScript template inside a theme (spec §2.4). */
export interface TemplateFields {
  id: string;
  updated_on: string;
  /** File name including extension, 1–2 path segments (e.g. `layout.html`, `partials/cart.html`). */
  file_name: string;
  /** File name without extension. */
  name: string;
  content_type: TemplateContentType;
  /** Full source text. */
  body: string;
}

/** A static file of a theme (spec §2.5). It has a `file` link and no `self`. */
export interface ThemeAssetFields {
  id: string;
  updated_on: string;
  /** MD5 hex digest of the file's bytes. */
  digest: string;
  /** Size in bytes. */
  file_size: number;
  file_name: string;
  /** Media type, e.g. `image/png`. */
  content_type: string;
}

/** Paging members of a results entity (wire contract, Results entities). */
export interface ResultsFields {
  total_items: number;
  /** 1-based page number. */
  page: number;
  per_page: number;
}
