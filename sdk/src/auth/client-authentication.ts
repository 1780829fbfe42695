/**
 * How a client authenticates at the token endpoint, apart from the request itself: `storefront-server` shares it
 * through `@storefront-platform/sdk/internal`, without the SDK's HTTP layer.
 */

/** A client's registration, as issued by the platform. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** The `application/x-www-form-urlencoded` form of one value. */
function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

/** HTTP Basic credentials of a client: id and secret form-urlencoded before base64 (RFC 6749 §2.3.1, App. B). */
export function basicAuthorization({ clientId, clientSecret }: ClientCredentials): string {
  // Form-encoding leaves only ASCII, which btoa accepts.
  return `Basic ${btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`)}`;
}
