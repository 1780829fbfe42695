/** The colours a theme is drawn in, from the shop's accent. */
import type { Rgb } from '../images.js';

/** `#rrggbb` of a colour. */
export const hex = ([r, g, b]: Rgb) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
/** The colour `t` of the way from `a` to `b`. */
export const mix = (a: Rgb, b: Rgb, t: number): Rgb =>
  [0, 1, 2].map((i) => Math.round(a[i]! + (b[i]! - a[i]!) * t)) as never;
export const WHITE: Rgb = [255, 255, 255];
export const INK: Rgb = [34, 34, 40];
