/** Entity types of every representation of the contract, for annotating variables and parameters. */
import type { Entity } from './entity.js';
import type { Results } from './results.js';
import type { ShapeOf } from './shape.js';

export type Root = Entity<ShapeOf<'root'>>;
export type Shop = Entity<ShapeOf<'shop'>>;
export type ShopSummary = Entity<ShapeOf<'shopSummary'>>;
export type Product = Entity<ShapeOf<'product'>>;
export type ProductSummary = Entity<ShapeOf<'productSummary'>>;
export type ProductVariant = Entity<ShapeOf<'productVariant'>>;
export type Order = Entity<ShapeOf<'order'>>;
export type OrderSummary = Entity<ShapeOf<'orderSummary'>>;
export type OrderLineItem = Entity<ShapeOf<'orderLineItem'>>;
export type Theme = Entity<ShapeOf<'theme'>>;
export type Template = Entity<ShapeOf<'themeTemplate'>>;
export type ThemeAsset = Entity<ShapeOf<'themeAsset'>>;
export type ProductList = Results<ShapeOf<'productSummary'>>;
export type ShopList = Results<ShapeOf<'shopSummary'>>;
export type OrderList = Results<ShapeOf<'orderSummary'>>;
