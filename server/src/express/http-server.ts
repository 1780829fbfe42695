import { createServer, type Server } from 'node:http';
import { answerClientError } from './client-error.js';
import { deferContinue } from './expect-continue.js';
import { type ServerTimeouts, timeoutOptions } from './timeouts.js';

/**
 * Node's HTTP server for the Express shell: deliberate timeouts, JSON answers to requests its parser refuses, and
 * `100 Continue` sent only when a body is read.
 */
export function createHttpServer(timeouts?: ServerTimeouts): Server {
  const server = createServer(timeoutOptions(timeouts));
  server.on('clientError', answerClientError);
  deferContinue(server);
  return server;
}
