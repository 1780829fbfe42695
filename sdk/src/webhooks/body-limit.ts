/**
 * The most `createWebhookHandler` reads of a delivery's body (`WebhookHandlerOptions.maxBodySize`). The body is read
 * before its signature can be checked, so anyone who can reach the endpoint chooses its size: it is counted as it
 * streams in and reading stops as soon as the count passes the limit.
 */

/**
 * The default limit, 1 MiB: the platform's events are a few KB, and a receiver holding eight bodies at once holds
 * 8 MiB at most. A literal, not `1024 * 1024`: bundlers keep an unused product in apps that never read it.
 */
export const DEFAULT_MAX_BODY_SIZE = 1_048_576;

/**
 * The bytes of `request`'s body, or `undefined` when there are more than `limit` (a `Content-Length` that says so is
 * believed without reading).
 */
export async function readBody(request: Request, limit: number | false): Promise<Uint8Array | undefined> {
  if (limit !== false && Number(request.headers.get('content-length')) > limit) return undefined;
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) {
    size += chunk.value.length;
    if (limit !== false && size > limit) {
      // The rest is the sender's to keep: `cancel` tells the runtime not to read it into memory.
      await reader!.cancel();
      return undefined;
    }
    chunks.push(chunk.value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}
