import type { Link as HalLink } from '../contract/index.js';
import { TemplateVariableError } from '../errors/template-variable-error.js';
import { expandTemplate, templateVariables } from './uri-template.js';

/** Verbs a link is followed with. */
export type LinkVerb = 'GET' | 'PUT' | 'POST' | 'DELETE';

/**
 * A link of a resource, ready to use: its relation, its verb, and its target resolved against the document
 * it came from (templated targets are resolved once expanded).
 */
export class Link {
  // Public fields are declared and set by the constructor: defined fields would be emitted twice in bundles.
  /** The relation as written in the document's `_links` (e.g. `svc:update_theme`, `next`). */
  declare readonly rel: string;
  /** The `href` as written in the document (a template when `templated`). */
  declare readonly href: string;
  /** The verb following it uses: the link's `method`, GET when absent. */
  declare readonly method: LinkVerb;
  declare readonly templated: boolean;
  /** Media type of the target when it is not JSON (e.g. `text/html`). */
  declare readonly type: string | undefined;
  declare readonly title: string | undefined;
  declare readonly name: string | undefined;
  /** URL of the document the link came from, against which a relative `href` resolves. */
  declare readonly base: string;

  constructor(rel: string, link: HalLink, base: string) {
    this.rel = rel;
    this.href = link.href;
    this.method = (link.method?.toUpperCase() ?? 'GET') as LinkVerb;
    this.templated = !!link.templated;
    this.type = link.type;
    this.title = link.title;
    this.name = link.name;
    this.base = base;
  }

  /** Variables of the template (empty when not templated). */
  get variables(): readonly string[] {
    return this.templated ? templateVariables(this.href) : [];
  }

  /**
   * The absolute target URL, expanding the template with `vars`. Throws a `TemplateVariableError` for a
   * variable the template does not declare, and unless `strict` is `false` for a missing path variable (see
   * `FollowOptions.strictTemplates`).
   */
  expand(vars: Readonly<Record<string, unknown>> = {}, strict?: boolean): string {
    const { url, unused } = this.resolve(vars, strict);
    const extra = Object.keys(unused);
    if (extra.length) {
      throw new TemplateVariableError({
        reason: 'undeclared',
        variables: extra,
        template: this.href,
        declared: this.variables,
      });
    }
    return url;
  }

  /** The absolute target URL and the arguments the template did not use (a non-GET request's body). */
  resolve(
    args: Readonly<Record<string, unknown>> = {},
    strict?: boolean,
  ): { url: string; unused: Record<string, unknown> } {
    const { url, unused } = this.templated
      ? expandTemplate(this.href, args, strict)
      : { url: this.href, unused: { ...args } };
    return { url: new URL(url, this.base).href, unused };
  }
}
