import { createServer, type Server } from 'node:http';
import { answerClientError } from './client-error.js';
import { type ServerTimeouts, timeoutOptions } from './timeouts.js';

/** Node's HTTP server for the Express shell: deliberate timeouts, and JSON answers to requests its parser refuses. */
export function createHttpServer(timeouts?: ServerTimeouts): Server {
  const server = createServer(timeoutOptions(timeouts));
  server.on('clientError', answerClientError);
  return server;
}
