import { badRequest } from './http-error.js';

/** A JavaScript identifier path such as `cb` or `jQuery.callbacks._1`: nothing that could inject script. */
const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
const MAX_CALLBACK_LENGTH = 128;

/** Media type of JSONP responses. */
export const JSONP_TYPE = 'text/javascript; charset=utf-8';

/** The validated `callback` query parameter of a `.jsonp` request; 400 when missing or unsafe. */
export function jsonpCallback(query: URLSearchParams): string {
  const callback = query.get('callback');
  if (!callback) throw badRequest('A .jsonp request needs a callback query parameter');
  if (callback.length > MAX_CALLBACK_LENGTH || !CALLBACK.test(callback)) {
    throw badRequest('Invalid callback: use a JavaScript identifier path, e.g. cb or app.handlers.cb');
  }
  return callback;
}

/** U+2028 and U+2029: JSON allows them raw in strings, JavaScript before ES2019 ends a line there. */
const SEPARATORS = /[\u2028\u2029]/g;

/**
 * The JSON body wrapped in a call. The leading comment defeats the Rosetta Flash family of attacks,
 * where a crafted callback name made the response parse as something other than script. The line and
 * paragraph separators are escaped so that older engines do not see a string broken across lines and
 * refuse the whole script.
 */
export function wrapJsonp(callback: string, json: string): string {
  const script = json.replace(SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
  return `/**/${callback}(${script});`;
}
