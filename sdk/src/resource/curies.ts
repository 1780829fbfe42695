import type { Curie } from '../contract/index.js';

/**
 * The curies in scope for a resource: its own `_links.curies` over those of the resources that embed it
 * (HAL: embedded resources inherit curies). Turns `svc:update_theme` into its IRI and back to `update_theme`.
 */
export class Curies {
  readonly #templates: ReadonlyMap<string, string>;

  private constructor(templates: ReadonlyMap<string, string>) {
    this.#templates = templates;
  }

  static readonly none = new Curies(new Map());

  /** The curies of a resource at `base` (its document URL) declaring `own`, inside `parent`'s scope. */
  static of(own: unknown, base: string, parent: Curies = Curies.none): Curies {
    if (!Array.isArray(own) || own.length === 0) return parent;
    // The parent's templates are already absolute; this resource's are resolved against its own document. Checked
    // here too: the explorer reads curies of documents the HAL check never saw.
    const templates = new Map(parent.#templates);
    for (const curie of own as Curie[]) {
      if (typeof curie?.name === 'string' && typeof curie.href === 'string') {
        templates.set(curie.name, absolute(curie.href, base));
      }
    }
    return new Curies(templates);
  }

  /** The prefix and local name of a compact relation (`svc:theme` → [`svc`, `theme`]) when the prefix is a curie. */
  split(rel: string): [prefix: string, local: string] | undefined {
    const colon = rel.indexOf(':');
    if (colon <= 0) return undefined;
    const prefix = rel.slice(0, colon);
    return this.#templates.has(prefix) ? [prefix, rel.slice(colon + 1)] : undefined;
  }

  /** The IRI a relation name stands for: expanded when compact, itself when already an absolute IRI. */
  expand(rel: string): string | undefined {
    const parts = this.split(rel);
    if (parts) return this.#templates.get(parts[0])?.replace('{rel}', encodeURIComponent(parts[1]));
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(rel) ? rel : undefined;
  }
}

/** Resolves a curie template without letting `URL` percent-encode its `{rel}`. */
function absolute(href: string, base: string): string {
  // Percent-encoded already, so `URL` leaves it as it is; no href carries it for real.
  const marker = '%00rel';
  try {
    return new URL(href.replace('{rel}', marker), base).href.replace(marker, '{rel}');
  } catch {
    return href;
  }
}
