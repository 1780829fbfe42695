/**
 * `expect.poll` with room for a loaded machine: on CI's two cores, with other suites running, a page may take
 * seconds to show an answer that takes milliseconds alone. Never a measure of speed, only of arrival.
 */
import { expect } from 'vitest';

export function eventually<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 20_000 });
}
