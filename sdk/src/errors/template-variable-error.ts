import { StorefrontError } from './storefront-error.js';

/**
 * A URI template could not be expanded as asked: a path variable was not given (`missing`) or a variable was
 * given that the template does not declare (`undeclared`, which usually is a typo).
 */
export class TemplateVariableError extends StorefrontError {
  override name = 'TemplateVariableError';
  declare readonly code: 'TEMPLATE_VARIABLE';
  declare readonly reason: 'missing' | 'undeclared';
  declare readonly variables: readonly string[];
  /** The template, e.g. `/v1/shops/{shop_id}/products/{id}.json`. */
  declare readonly template: string;
  /** Variables the template declares. */
  declare readonly declared: readonly string[];

  constructor(init: {
    reason: 'missing' | 'undeclared';
    variables: readonly string[];
    template: string;
    declared: readonly string[];
  }) {
    const names = init.variables.join(', ');
    const text =
      init.reason === 'missing'
        ? `Missing required variable(s) ${names} for template ${init.template}`
        : `Undeclared variable(s) ${names} for template ${init.template}; it declares: ${init.declared.join(', ') || 'none'}`;
    super('TEMPLATE_VARIABLE', text);
    this.reason = init.reason;
    this.variables = init.variables;
    this.template = init.template;
    this.declared = init.declared;
  }
}
