import { badRequest } from './http-error.js';
import type { Method, Route } from './route.js';

/** How a route-less request ends: which methods the path allows (405), or nothing (404). */
export type RouteMatch =
  | { route: Route; params: Record<string, string>; jsonp: boolean }
  | { route?: undefined; allow: string }
  | undefined;

type Segment = { literal: string } | { param: string } | { rest: string };

interface Compiled {
  route: Route;
  segments: Segment[];
}

function compile(route: Route): Compiled {
  const segments = route.path
    .split('/')
    .filter(Boolean)
    .map((part, i, all): Segment => {
      if (part.startsWith(':')) return { param: part.slice(1) };
      if (part.startsWith('*')) {
        if (i !== all.length - 1) throw new Error(`${route.path}: a *rest parameter must come last`);
        return { rest: part.slice(1) };
      }
      return { literal: part };
    });
  return { route, segments };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('Malformed percent-encoding in the path');
  }
}

/** Literals first, without allocating: most routes fail there. */
function literalsMatch(segments: readonly Segment[], parts: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if ('rest' in segment) return i < parts.length;
    if (i >= parts.length) return false;
    if ('literal' in segment && segment.literal !== parts[i]) return false;
  }
  return segments.length === parts.length;
}

function paramsOf(segments: readonly Segment[], parts: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if ('rest' in segment) params[segment.rest] = parts.slice(i).join('/');
    else if ('param' in segment) params[segment.param] = decode(parts[i]!);
  }
  return params;
}

/**
 * Method + path → route. With `suffixes`, a trailing `.json` is optional and `.jsonp` asks for JSONP,
 * for every route at once. HEAD matches GET routes.
 */
export class Router {
  private readonly compiled: Compiled[];

  constructor(
    routes: readonly Route[],
    private readonly suffixes: boolean,
  ) {
    this.compiled = routes.map(compile);
  }

  /** `path` is relative to the mount (starts with `/`), still percent-encoded. */
  match(method: string, path: string): RouteMatch {
    let jsonp = false;
    let rest = path;
    if (this.suffixes) {
      if (rest.endsWith('.jsonp')) {
        jsonp = true;
        rest = rest.slice(0, -6);
      } else if (rest.endsWith('.json')) rest = rest.slice(0, -5);
    }
    const parts = rest.split('/').filter(Boolean);
    const wanted: Method | undefined = method === 'HEAD' ? 'GET' : (method as Method);
    const allowed = new Set<string>();
    for (const { route, segments } of this.compiled) {
      if (!literalsMatch(segments, parts)) continue;
      if (route.method === wanted && (!jsonp || route.method === 'GET')) {
        return { route, params: paramsOf(segments, parts), jsonp };
      }
      allowed.add(route.method);
      if (route.method === 'GET') allowed.add('HEAD');
    }
    // JSONP exists only as a form of GET.
    if (allowed.size === 0 || (jsonp && !allowed.has('GET'))) return undefined;
    if (jsonp) return { allow: 'GET, HEAD' };
    return { allow: [...allowed, 'OPTIONS'].join(', ') };
  }
}
