/** Types for `jwt-encode`, which ships none: the suite signs assertions with it, a library apart from the SDK's own signer. */
declare module 'jwt-encode' {
  /** Signs `payload` as a compact HS256 JWT with the UTF-8 bytes of `secret`. */
  export default function sign(payload: object, secret: string): string;
}
