import { describe, expect, it } from 'vitest';
import { connectRemote, RemoteApiError, remoteFromArgs } from '../../src/remote/remote-api.js';
import { useTestServer } from '../helpers/test-server.js';

const server = useTestServer({ products: 3 });

describe('connectRemote', () => {
  it('signs in as the demo user (password grant) and as the app (client credentials)', async () => {
    const { url, credentials } = server();
    if (!credentials) throw new Error('the test server is seeded');
    const base = { url: `${url}/v1`, clientId: credentials.clientId, clientSecret: credentials.clientSecret };
    const user = await connectRemote({ ...base, login: credentials.login, password: credentials.password }).root();
    expect(user.properties.user_name).toBeTruthy();
    const app = await connectRemote(base).root();
    expect(app.properties.user_name).toBe(user.properties.user_name);
  });

  it('says what is wrong before any request', () => {
    expect(() => connectRemote({ url: 'not a url', clientId: 'a', clientSecret: 'b' })).toThrow(RemoteApiError);
    expect(() => connectRemote({ url: 'ftp://x/v1', clientId: 'a', clientSecret: 'b' })).toThrow(/http/);
    expect(() => connectRemote({ url: 'http://x/v1', clientId: 'a', clientSecret: 'b', login: 'u' })).toThrow(
      /password/,
    );
  });
});

describe('remoteFromArgs', () => {
  it('reads secrets from the environment only', () => {
    const env = { STOREFRONT_REMOTE_CLIENT_SECRET: 's', STOREFRONT_REMOTE_PASSWORD: 'p' };
    expect(remoteFromArgs('http://x/v1', { 'client-id': 'c', login: 'u' }, env)).toEqual({
      url: 'http://x/v1',
      clientId: 'c',
      clientSecret: 's',
      login: 'u',
      password: 'p',
    });
    expect(() => remoteFromArgs('http://x/v1', { 'client-id': 'c' }, {})).toThrow(/CLIENT_SECRET/);
    expect(() => remoteFromArgs('http://x/v1', {}, env)).toThrow(/--client-id/);
    expect(() =>
      remoteFromArgs('http://x/v1', { 'client-id': 'c', login: 'u' }, { STOREFRONT_REMOTE_CLIENT_SECRET: 's' }),
    ).toThrow(/PASSWORD/);
  });
});
