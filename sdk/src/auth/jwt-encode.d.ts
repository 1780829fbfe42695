/** Types for `jwt-encode` (HS256 JWT signing that runs in browsers), which ships none. */
declare module 'jwt-encode' {
  /** Signs `payload` as a compact HS256 JWT with the UTF-8 bytes of `secret`. */
  export default function sign(payload: object, secret: string): string;
}
