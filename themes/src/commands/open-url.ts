import open from 'open';
import type { Output } from '../cli/output.js';

/**
 * Opens `url` in the default browser (`open` knows each platform's way, WSL and containers included). The URL
 * was printed first, so a browser that cannot start is a note, not a failure. `open` leaves its launcher running
 * in the background (`xdg-open` on Linux), which says it found no browser only by its exit status: that is
 * reported when it comes while the command still runs (a login waiting for the browser), not waited for.
 */
export async function openInBrowser(url: string, output: Output): Promise<void> {
  const cannot = (reason: string) => output.note(`Could not open a browser (${reason}): open the address above.`);
  try {
    const launcher = await open(url);
    launcher.once('error', (error) => cannot(error.message));
    launcher.once('exit', (code) => {
      if (code) cannot(`${launcher.spawnfile} exited with status ${code}`);
    });
  } catch (error) {
    cannot((error as Error).message);
  }
}
