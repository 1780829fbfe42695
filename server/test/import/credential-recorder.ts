/**
 * A `fetch` that adds to `used` every credential passing through it: `Authorization` values (whole and without
 * their scheme) and the access tokens of token responses, for a test to grep what an import wrote.
 */
export function credentialRecorder(used: Set<string>): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const authorization = request.headers.get('authorization');
    if (authorization) {
      used.add(authorization);
      used.add(authorization.replace(/^\w+ /, ''));
    }
    const response = await fetch(request);
    if (request.url.endsWith('/oauth/token')) {
      const body = (await response.clone().json()) as { access_token?: string };
      if (body.access_token) used.add(body.access_token);
    }
    return response;
  };
}
