/** Which requests a fault rule matches: by method, and by path or by the relation whose links lead there. */
import { type RelationRoute, relationRoutes } from './relation-routes.js';
import { SandboxError } from './sandbox-error.js';

/** What a rule matches on, as listed. */
export interface FaultTarget {
  method: string | null;
  path: string | null;
  relation: string | null;
}

/** A rule's `path` as a RegExp of whole paths: `:name` one segment, `*` anything (slashes included). */
export function patternOf(path: string): RegExp {
  if (!path.startsWith('/'))
    throw new SandboxError(`A fault's path must start with "/", got ${JSON.stringify(path)}`, 400);
  const source = path
    .split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** The methods a route answers: a GET route also answers HEAD. */
const methodsOf = (route: RelationRoute) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]);

/** The methods of a relation's routes, for a rule that names both (a method none of them has never matches). */
export function relationMethods(relation: string): string[] {
  return [...new Set(relationRoutes(relation).routes.flatMap(methodsOf))];
}

/** Whether a request of `method` (upper case) at `path` is one `target` matches. */
export function matcherOf(target: FaultTarget): (method: string, path: string) => boolean {
  const byMethod = (method: string) => target.method === null || target.method === method;
  if (target.relation !== null) {
    const routes = relationRoutes(target.relation).routes.map((route) => ({
      methods: methodsOf(route),
      pattern: new RegExp(`${patternOf(route.path).source.slice(0, -1)}${route.suffixed ? '(?:\\.jsonp?)?' : ''}$`),
    }));
    return (method, path) =>
      byMethod(method) && routes.some((route) => route.methods.includes(method) && route.pattern.test(path));
  }
  const pattern = target.path === null ? undefined : patternOf(target.path);
  return (method, path) => byMethod(method) && (pattern === undefined || pattern.test(path));
}
