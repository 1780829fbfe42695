/** `list`: a shop's themes, production first, then the development theme when the shop has one. */
import type { Client, Theme } from '@storefront-platform/sdk';
import { findShop, previewUrl } from './remote.js';

/** A theme as `list` shows it. */
export interface ListedTheme {
  role: 'production' | 'development';
  id: string;
  title: string;
  /** When any of its files or settings last changed (ISO 8601). */
  updated_on: string;
  /** Its preview page (no login needed). */
  preview: string;
  /** Its address on the API. */
  href: string;
}

/** The themes of a shop. */
export interface ThemeList {
  shop: { id: string; subdomain: string; name: string };
  themes: ListedTheme[];
}

function listed(theme: Theme): ListedTheme {
  const { id, title, production, updated_on } = theme.properties;
  return {
    role: production ? 'production' : 'development',
    id,
    title,
    updated_on,
    preview: previewUrl(theme),
    href: theme.link('self').expand(),
  };
}

/** The themes of the shop `shop` (subdomain or id; the user's only shop when unnamed); `signal` aborts the reads. */
export async function listThemes(client: Client, shop?: string, signal?: AbortSignal): Promise<ThemeList> {
  const found = await findShop(await client.root({ signal }), shop, signal);
  const production = await found.follow('svc:theme', undefined, { signal });
  const themes = [listed(production)];
  if (production.can('svc:dev_theme')) {
    themes.push(listed(await production.follow('svc:dev_theme', undefined, { signal })));
  }
  const { id, subdomain, name } = found.properties;
  return { shop: { id, subdomain, name }, themes };
}
