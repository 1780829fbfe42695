/**
 * The forms every GET also answers in, as operations of their own so that tools see them: HEAD wherever GET works
 * (spec §4.1: the same status and headers, no body), and on the resource API the `.jsonp` path (spec §4.5: the
 * same status, the JSON wrapped in a call of `callback`; the token may be the `access_token` parameter).
 */
import { ERROR_RESPONSES } from './responses.js';

type Operation = Record<string, unknown>;
type PathItem = Record<string, unknown>;

/** A response without its body: what HEAD answers. */
function headResponse(response: unknown): unknown {
  if (!response || typeof response !== 'object' || '$ref' in response) return response;
  const { content, ...rest } = response as Record<string, unknown>;
  void content;
  return rest;
}

/** The HEAD operation of a GET operation. */
function headOf(get: Operation): Operation {
  const responses = Object.fromEntries(
    Object.entries(get.responses as Record<string, unknown>).map(([status, response]) => [
      status,
      headResponse(response),
    ]),
  );
  return {
    ...get,
    operationId: `${get.operationId}Head`,
    summary: `Headers only: ${String(get.summary)}`,
    description: 'HEAD answers what GET does, with the same status and headers, and no body.',
    responses,
  };
}

/** `paths` with a HEAD beside every GET. */
export function withHeadOperations(paths: Record<string, PathItem>): Record<string, PathItem> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      item.get ? { ...item, head: headOf(item.get as Operation) } : item,
    ]),
  );
}

const CALLBACK = {
  name: 'callback',
  in: 'query',
  required: true,
  description: 'The function the JSON is passed to: a JavaScript identifier path (`cb`, `app.handlers.cb`).',
  schema: { type: 'string', pattern: '^[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*$', maxLength: 128 },
};

/** What a JSONP request answers: a script, whatever the status. */
const SCRIPT = {
  'text/javascript': {
    schema: { type: 'string', description: '`/**/callback(json);` with the JSON the GET answers.' },
  },
};

const ERROR_REF = '#/components/responses/';

/**
 * A GET's response as JSONP: a script. The shared error responses (`$ref`s) declare JSON, which a `.jsonp` error
 * is not (it is a script like any other answer), so they are inlined with their body as a script.
 */
function jsonpResponse(response: unknown, status: string): unknown {
  if (!response || typeof response !== 'object') return response;
  if ('$ref' in response) {
    const ref = String(response.$ref);
    const shared = ref.startsWith(ERROR_REF)
      ? ERROR_RESPONSES[ref.slice(ERROR_REF.length) as keyof typeof ERROR_RESPONSES]
      : undefined;
    if (!shared) throw new Error(`A .jsonp operation cannot tell the media type of ${ref}`);
    return jsonpResponse(shared, status);
  }
  const { content, ...rest } = response as Record<string, unknown>;
  if (!content) return rest;
  // A missing or unsafe callback cannot be called: that 400 is the plain JSON error (server/src/http/jsonp.ts).
  return { ...rest, content: status === '400' ? { ...SCRIPT, ...(content as object) } : SCRIPT };
}

/**
 * The `.jsonp` operation of a resource GET at `path` (`.json` suffix or none): every response, errors included,
 * with its status and headers, and its body wrapped in a script.
 */
export function jsonpOperation(get: Operation): Operation {
  const parameters = (get.parameters as object[]).filter((p) => (p as { in?: string }).in !== 'header');
  const responses = Object.fromEntries(
    Object.entries(get.responses as Record<string, unknown>).map(([status, r]) => [status, jsonpResponse(r, status)]),
  );
  const security = get.security as object[];
  return {
    ...get,
    operationId: `${get.operationId}Jsonp`,
    summary: `As JSONP: ${String(get.summary)}`,
    description:
      'The GET as a script to load from another origin: the same status, the JSON (an error’s too) passed to `callback`. The token may come as the `access_token` parameter instead of the header.',
    security: security.length ? [...security, { accessToken: [] }] : [],
    parameters: [...parameters, CALLBACK],
    responses,
  };
}

/** The security scheme of the `access_token` query parameter (JSONP only, RFC 6750 §2.3). */
export const ACCESS_TOKEN_SCHEME = {
  type: 'apiKey',
  in: 'query',
  name: 'access_token',
  description: 'An access token of the authorization service, as a query parameter: `.jsonp` requests only.',
};
