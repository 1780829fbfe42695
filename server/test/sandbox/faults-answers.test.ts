/**
 * The answers the fault layer gives itself, the core never seeing the request: a status rule's, and the store's
 * outage as the layer meets it reading its rules. Each in the terms of the service the path belongs to (RFC 6749's
 * at the token endpoint), naming its request in the body and in `X-Request-Id`, as the core's own errors do.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CoreHandler, CoreRequest, CoreResponse } from '../../src/core/types.js';
import { FaultSet } from '../../src/sandbox/faults.js';
import { StoreUnavailableError } from '../../src/store/errors.js';
import { createMemoryStore } from '../../src/store/memory.js';

const NOW = Date.UTC(2026, 10, 21, 9);

function request(method: string, path: string, id?: string): CoreRequest {
  const headers = new Headers(id === undefined ? {} : { 'x-request-id': id });
  return {
    method,
    url: new URL(path, 'http://storefront.test'),
    headers,
    body: async () => new Uint8Array(0),
    trace: {},
  };
}

const reached: CoreHandler = async () => {
  throw new Error('the core was reached');
};

const bodyOf = (response: CoreResponse) =>
  JSON.parse(typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body));

/** The fault layer over a store whose database has stopped answering. */
function unavailable(): CoreHandler {
  const store = createMemoryStore();
  store.sync = () => Promise.reject(new StoreUnavailableError('the database did not answer'));
  return new FaultSet(store).around(
    reached,
    async () => false,
    () => NOW,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('the store gone away under the fault rules', () => {
  it('answers the API the API error body with its request id and Retry-After', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const given = request('GET', '/v1/shops.json', 'outage-1');
    const response = await unavailable()(given);
    expect(response.status).toBe(503);
    expect(response.headers).toMatchObject({ 'retry-after': '1', 'x-request-id': 'outage-1' });
    expect(bodyOf(response)).toEqual({
      _class: ['errors'],
      message: 'Service unavailable: the database did not answer; read the resource again, then retry',
      request_id: 'outage-1',
    });
    // The journal names it as the answer does.
    expect(given.trace?.requestId).toBe('outage-1');
  });

  it("answers the token endpoint RFC 6749's temporarily_unavailable, a request id made when none was given", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await unavailable()(request('POST', '/oauth/token'));
    expect(response.status).toBe(503);
    expect(response.headers).toMatchObject({ 'retry-after': '1', 'access-control-allow-origin': '*' });
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(bodyOf(response)).toEqual({
      error: 'temporarily_unavailable',
      error_description: expect.any(String),
      request_id: id,
    });
  });
});

describe('a status rule', () => {
  const faults = () => new FaultSet(createMemoryStore());

  it('answers the API error body with the request id', async () => {
    const set = faults();
    set.add({ kind: 'status', status: 503, path: '/v1/*' });
    const response = await set.around(
      reached,
      async () => false,
      () => NOW,
    )(request('GET', '/v1/shops.json', 'r-1'));
    expect(response.headers).toMatchObject({ 'x-request-id': 'r-1', 'cache-control': expect.any(String) });
    expect(bodyOf(response)).toEqual({ _class: ['errors'], message: 'Service unavailable', request_id: 'r-1' });
  });

  it.each([
    [503, 'temporarily_unavailable'],
    [500, 'server_error'],
    [502, 'server_error'],
    [400, 'invalid_request'],
  ])('answers %i at the token endpoint as RFC 6749 %s, its message the description', async (status, error) => {
    const set = faults();
    set.add({ kind: 'status', status, retry_after: 3, message: 'Down for a test', path: '/oauth/token' });
    const handle = set.around(
      reached,
      async () => false,
      () => NOW,
    );
    const response = await handle(request('POST', '/oauth/token', 't-1'));
    expect(response.status).toBe(status);
    expect(response.headers).toMatchObject({ 'retry-after': '3', 'x-request-id': 't-1', 'cache-control': 'no-store' });
    expect(bodyOf(response)).toEqual({ error, error_description: 'Down for a test', request_id: 't-1' });
  });
});
