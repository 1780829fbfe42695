/**
 * Requests Node's parser refuses before Express sees them (headers too large, a malformed request line or
 * header, a request too slow to arrive) answered with the API's JSON error body instead of Node's bare status
 * line, whenever the connection can still take an answer.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { requestIdOf } from '../core/request-id.js';
import { shellError } from './shell-error.js';

/** Node's default limit of a request's headers (`--max-http-header-size`), for the 431's message. */
const MAX_HEADER_KIB = 16;

function statusOf(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, `Request header fields too large: at most ${MAX_HEADER_KIB} KiB of request line and headers`];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Chunk extensions too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request timeout: the request did not arrive in time'];
    default:
      return [400, 'Malformed HTTP request'];
  }
}

/** The whole answer as bytes, framed by hand: there is no request object to answer through. */
function rawResponse(status: number, message: string): Buffer {
  // The request's own `X-Request-Id`, if any, was not parsed: an id of ours.
  const response = shellError('GET', status, message, requestIdOf(null));
  const body = Buffer.from(response.body ?? '');
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`];
  for (const [name, value] of Object.entries(response.headers)) lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${body.byteLength}`, 'connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]);
}

/**
 * The `clientError` listener of the HTTP server. As Node's own: nothing is written when the peer is gone or a
 * response to an earlier request on the connection has begun (its bytes would be corrupted); the connection is
 * closed either way, once the answer is flushed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, message] = statusOf(error.code);
  socket.end(rawResponse(status, message), () => socket.destroy());
}
