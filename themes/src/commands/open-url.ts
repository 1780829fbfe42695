import open from 'open';
import type { Output } from '../cli/output.js';

/**
 * Opens `url` in the default browser (`open` knows each platform's way, WSL and containers included). The URL
 * was printed first, so a browser that cannot start is a note, not a failure.
 */
export async function openInBrowser(url: string, output: Output): Promise<void> {
  const cannot = (error: Error) => output.note(`Could not open a browser (${error.message}): open the address above.`);
  try {
    (await open(url)).once('error', cannot);
  } catch (error) {
    cannot(error as Error);
  }
}
