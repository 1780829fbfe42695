import { badRequest } from './http-error.js';
import type { Method, Route } from './route.js';

/** How a route-less request ends: which methods the path allows (405), or nothing (404). */
export type RouteMatch =
  | { route: Route; params: Record<string, string>; jsonp: boolean }
  | { route?: undefined; allow: string }
  | undefined;

/**
 * One path segment. A single shape for all kinds keeps property access monomorphic: this runs for every
 * candidate route of every request.
 */
interface Segment {
  kind: 'literal' | 'param' | 'rest';
  /** The literal text, or the parameter's name. */
  value: string;
}

interface Compiled {
  route: Route;
  segments: Segment[];
}

function compile(route: Route): Compiled {
  const segments = route.path
    .split('/')
    .filter(Boolean)
    .map((part, i, all): Segment => {
      if (part.startsWith(':')) return { kind: 'param', value: part.slice(1) };
      if (part.startsWith('*')) {
        if (i !== all.length - 1) throw new Error(`${route.path}: a *rest parameter must come last`);
        return { kind: 'rest', value: part.slice(1) };
      }
      return { kind: 'literal', value: part };
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

/** Literals first, without allocating: most candidates fail there. */
function literalsMatch(segments: readonly Segment[], parts: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === 'rest') return i < parts.length;
    if (segment.kind === 'literal' && segment.value !== parts[i]) return false;
  }
  return true;
}

function paramsOf(segments: readonly Segment[], parts: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === 'rest') params[segment.value] = parts.slice(i).join('/').replace(ENCODED_SLASH, '/');
    else if (segment.kind === 'param') params[segment.value] = decode(parts[i]!);
  }
  return params;
}

/**
 * An encoded `/` in a rest parameter reads as the `/` it stands for: an OpenAPI path parameter cannot hold a
 * slash, so generated clients send `images%2Flogo.png` for the file `images/logo.png`. Only the slash is
 * decoded: the rest of the rest stays as sent, and what it names is still checked where it is looked up.
 */
const ENCODED_SLASH = /%2F/gi;

const NONE: readonly Compiled[] = [];

/**
 * Method + path → route. With `suffixes`, a trailing `.json` is optional and `.jsonp` asks for JSONP,
 * for every route at once. HEAD matches GET routes.
 */
export class Router {
  /** Routes without a `*rest` segment, by their number of segments: a request only meets its own. */
  private readonly bySize = new Map<number, Compiled[]>();
  /** Routes ending in `*rest`, which match paths of any length from theirs on. */
  private readonly open: Compiled[] = [];

  constructor(
    routes: readonly Route[],
    private readonly suffixes: boolean,
  ) {
    for (const compiled of routes.map(compile)) {
      if (compiled.segments.at(-1)?.kind === 'rest') this.open.push(compiled);
      else {
        const size = compiled.segments.length;
        this.bySize.set(size, [...(this.bySize.get(size) ?? []), compiled]);
      }
    }
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
    let allowed: Set<string> | undefined;
    for (const candidates of [this.bySize.get(parts.length) ?? NONE, this.open]) {
      for (const { route, segments } of candidates) {
        if (!literalsMatch(segments, parts)) continue;
        if (route.method === wanted && (!jsonp || route.method === 'GET')) {
          return { route, params: paramsOf(segments, parts), jsonp };
        }
        allowed ??= new Set();
        allowed.add(route.method);
        if (route.method === 'GET') allowed.add('HEAD');
      }
    }
    // JSONP exists only as a form of GET.
    if (!allowed || (jsonp && !allowed.has('GET'))) return undefined;
    if (jsonp) return { allow: 'GET, HEAD' };
    return { allow: [...allowed, 'OPTIONS'].join(', ') };
  }
}
