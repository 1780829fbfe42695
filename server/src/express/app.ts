/**
 * The Express 5 shell around the core: the work of `request-listener.ts` as an Express application, to mount in
 * an app of one's own.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { GzipCache } from './gzip.js';
import { type ExpressAppOptions, failed, logRequest, serve } from './request-listener.js';

function requestLog(log: (line: string) => void) {
  return (req: Request, res: Response, next: NextFunction) => {
    logRequest(log, req, res, req.originalUrl);
    next();
  };
}

/** An Express application serving the core. */
export function createExpressApp(options: ExpressAppOptions): Express {
  const { log } = options;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  if (log) app.use(requestLog(log));
  const gzipCache = new GzipCache();
  app.use((req: Request, res: Response) => serve(req, res, options, gzipCache));
  // What escapes the handler above would otherwise reach Express's final handler, which answers in HTML.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => failed(error, req, res, gzipCache));
  return app;
}
