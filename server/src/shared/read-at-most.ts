/**
 * Reads `body` to its end, handing each chunk to `take`, and answers `true`; past `max` bytes it stops, cancels the
 * stream without waiting and answers `false`. Not awaited: under msw 2 the cancel of an intercepted request body
 * never settles.
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array>,
  max: number,
  take: (chunk: Uint8Array) => void = () => undefined,
): Promise<boolean> {
  const reader = body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    size += value.byteLength;
    if (size > max) {
      void reader.cancel().catch(() => undefined);
      return false;
    }
    take(value);
  }
}
