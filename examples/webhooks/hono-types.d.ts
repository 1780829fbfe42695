/**
 * The few types of Hono (honojs/hono) the Hono webhook example and its docs block use. Hono is not installed in
 * this repository (it would be a dependency for one example): these declarations type-check the example against
 * Hono 4's documented API (`new Hono()`, `app.post(path, handler)`, `c.req.raw`, `c.req.text()`, `c.text()`,
 * `app.fetch`) instead. Remove this file if hono is ever installed.
 */
declare module 'hono' {
  export interface Context {
    req: { raw: Request; text(): Promise<string>; header(name: string): string | undefined };
    text(text: string, status?: number): Response;
    body(data: null, status?: number): Response;
  }
  export class Hono {
    post(path: string, handler: (c: Context) => Response | Promise<Response>): this;
    fetch: (request: Request) => Promise<Response>;
  }
}
