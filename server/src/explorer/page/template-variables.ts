/** The variables of a URI template (RFC 6570), with whether the target needs them. */

/** One variable of a template. */
export interface TemplateVariable {
  name: string;
  /** A path variable (`{id}`); query variables (`{?q,page}`, `{&x}`) may be left out. */
  required: boolean;
}

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

export function templateVariables(template: string): TemplateVariable[] {
  const variables: TemplateVariable[] = [];
  for (const [, operator, list] of template.matchAll(EXPRESSION)) {
    for (const spec of list!.split(',')) {
      // Modifiers (`:3`, `*`) are not part of the name.
      const name = spec.replace(/(?::\d+|\*)$/, '').trim();
      if (name && !variables.some((v) => v.name === name)) {
        variables.push({ name, required: operator !== '?' && operator !== '&' });
      }
    }
  }
  return variables;
}
