/** What a demo shop's theme files are made of. */
import type { Rgb } from '../images.js';

/** What a theme's files are drawn for. */
export interface ThemeShop {
  name: string;
  description: string;
  locale: string;
  currency_code: string;
  /** Brand colour of the shop. */
  accent: Rgb;
}

/** A template: its file name and its text. */
export interface ThemeFile {
  file_name: string;
  body: string;
}

/** An image asset, drawn on demand. */
export interface ThemeImage {
  file_name: string;
  content_type: string;
  /** Draws the file's bytes (a few milliseconds: the seed defers it until the bytes are read). */
  draw: () => Uint8Array;
}
