/**
 * What every example is given: where the API is, which app it is, and where its output goes. The runner
 * (`examples/run.ts`) builds it from the environment; tests build it from a server they started.
 */
export interface ExampleOptions {
  /** The API root, `{base_url}` of the spec (the reference server's is `{origin}/v1`). */
  baseUrl: string;
  /** The authorization service, `{auth_url}` of the spec: the token endpoint is `{authUrl}/oauth/token`. */
  authUrl: string;
  /** The app's client id, as registered on the platform. */
  clientId: string;
  /** The app's client secret. Keep it out of logs and out of browsers. */
  clientSecret: string;
  /** Where the example writes its readable output, one line per call. Default `console.log`. */
  log?: (line: string) => void;
  /** Stops a long-running example (the runner aborts it on Ctrl-C). */
  signal?: AbortSignal;
}
