/**
 * Why a request got no response, in a few words. Node's fetch (undici) says only "fetch failed": the system's code
 * lies in its cause, a level or two down, or in the errors of an AggregateError there (a name that resolves to
 * several addresses, each refused). The first code found is said in words; else the deepest message.
 */
const WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  UND_ERR_SOCKET: 'connection closed',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'no such host (for now)',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

type Failure = { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };

/** The reason of `error` (what fetch threw, or what an error wraps as its `cause`), e.g. `connection refused`. */
export function networkReason(error: unknown): string {
  let deepest: string | undefined;
  const queue: unknown[] = [error];
  for (let n = 0; n < queue.length && n < 20; n++) {
    const failure = queue[n];
    if (typeof failure !== 'object' || failure === null) continue;
    const { code, message, cause, errors } = failure as Failure;
    if (typeof code === 'string' && /^E[A-Z]+$|^UND_ERR_/.test(code)) return WORDS[code] ?? code;
    if (typeof message === 'string' && message) deepest = message;
    queue.push(cause, ...(Array.isArray(errors) ? errors : []));
  }
  return deepest ?? 'no response';
}
