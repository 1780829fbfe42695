/**
 * The ky of "a user's own instance" in the transport tests. By default the repository's ky (1), which the tests are
 * typed against; when `STOREFRONT_TEST_KY` names the directory of another ky package (sdk/test/run-ky2.sh installs
 * ky 2 outside the repository), that one, so that the same tests run a user's ky 2 instance through the SDK, whose
 * own ky stays 1. Clients made here always go through that instance, and hooks are written once and handed to it
 * in its own form.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as sdk from '@storefront-platform/sdk';
import type { Hooks, HTTPError, KyInstance, Options } from 'ky';

/** What the tests use of a ky module; typed as ky 1's, which a ky 2 module matches in these names. */
type KyModule = typeof import('ky');

const dir = process.env.STOREFRONT_TEST_KY;

const kyModule: KyModule = dir
  ? await import(pathToFileURL(createRequire(join(dir, 'package.json')).resolve(dir)).href)
  : await import('ky');

/** The major version of the user's ky. */
export const kyMajor: number = dir
  ? Number((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version.split('.')[0])
  : 1;

/** The user's ky (`ky` itself): `.create()`, `.extend()`, `.stop`. */
export const userKy: KyInstance = kyModule.default;

/** The user's ky's own `isHTTPError`, as the user's `shouldRetry` would use it. */
export const isUserHTTPError: (error: unknown) => error is HTTPError = kyModule.isHTTPError;

/** `createClient` on the user's ky, unless the options name an instance of their own. */
export function createClient(options: sdk.ClientOptions): sdk.Client {
  return sdk.createClient({ ky: userKy, ...options });
}

/**
 * The options of an instance that put its requests under `url`: ky 1's `prefixUrl`; ky 2's `prefix` (it refuses
 * the old name) and `baseUrl`.
 */
export function prefixOptions(url: string): Options {
  return (kyMajor >= 2 ? { prefix: url, baseUrl: url } : { prefixUrl: url }) as Options;
}

/** What a hook is told, in ky 2's form: one state object (ky 1 passes most of it as separate arguments). */
export interface HookState {
  request: Request;
  options: unknown;
  retryCount: number;
}

/** Hooks as the tests write them, each with its state object. */
export interface TestHooks {
  beforeRequest?: ((state: HookState) => unknown)[];
  afterResponse?: ((state: HookState & { response: Response }) => unknown)[];
  beforeRetry?: ((state: HookState & { error: Error }) => unknown)[];
  beforeError?: ((state: HookState & { error: Error }) => Error | Promise<Error>)[];
}

/** `given` in the form of the user's ky, for `ClientOptions.hooks` or an instance of the user's. */
export function userHooks(given: TestHooks): Hooks {
  if (kyMajor >= 2) return given as Hooks;
  const { beforeRequest, afterResponse, beforeRetry, beforeError } = given;
  // Only the lists given: to ky, a list given as `undefined` removes the instance's hooks.
  const hooks: Record<string, unknown[]> = {};
  if (beforeRequest) {
    hooks.beforeRequest = beforeRequest.map(
      (hook) => (request: Request, options: unknown, state: { retryCount: number }) =>
        hook({ request, options, retryCount: state.retryCount }),
    );
  }
  if (afterResponse) {
    hooks.afterResponse = afterResponse.map(
      (hook) => (request: Request, options: unknown, response: Response, state: { retryCount: number }) =>
        hook({ request, options, response, retryCount: state.retryCount }),
    );
  }
  if (beforeRetry) hooks.beforeRetry = beforeRetry;
  if (beforeError) {
    hooks.beforeError = beforeError.map(
      (hook) => (error: HTTPError, state: { retryCount: number }) =>
        hook({ request: error.request, options: error.options, error, retryCount: state.retryCount }),
    );
  }
  return hooks as Hooks;
}
