import { connect } from 'node:net';

/** What a raw connection got before it closed. */
export interface RawExchange {
  /** Everything the server sent, as latin1 text. */
  received: string;
  /** Milliseconds from connecting to the close (printed by tests, never asserted on). */
  ms: number;
  /** Bytes the client had written when the connection closed. */
  written: number;
}

/**
 * Opens a TCP connection to `url`'s host and port, writes `chunks` one after the other (`gapMs` apart),
 * and resolves once the server closes the connection: for requests no HTTP client would send.
 */
export function rawExchange(url: string, chunks: readonly string[], gapMs = 0): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const socket = connect(Number(port), hostname);
    let received = '';
    let written = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => (received += text));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while the client still writes: what it answered is still there to check.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, ms: performance.now() - start, written });
    });
    const next = (i: number) => {
      if (i >= chunks.length || socket.destroyed) return;
      socket.write(chunks[i]!);
      written += chunks[i]!.length;
      timer = setTimeout(() => next(i + 1), gapMs);
    };
    socket.once('connect', () => next(0));
  });
}

/** The status and parsed JSON body of a raw HTTP/1.1 response. */
export function parseRawResponse(text: string): { status: number; headers: Record<string, string>; body: unknown } {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(end + 4);
  return { status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined };
}
