/**
 * Debian's Chromium, driven by playwright-core (which downloads no browser of its own). `.ci/run` and `npm test`
 * install it when missing. Where none can be had the browser suites skip, saying so loudly; under CI a
 * missing Chromium fails them instead, since CI must run them.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { describe } from 'vitest';
import { requirement, skipWithout } from '../../support/requirement.js';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The Chromium executable, if this machine has one. */
export const chromiumPath = CANDIDATES.find((path): path is string => !!path && existsSync(path));

const CHROMIUM = requirement(
  `Chromium (looked for ${CANDIDATES.filter(Boolean).join(', ')})`,
  'Install it: apt-get install chromium (npm test does it when it may), or set CHROMIUM_PATH.',
  () => chromiumPath !== undefined,
);

/** `describe`, or a loud skip when there is no Chromium (and a failure under CI). */
export function describeInBrowser(name: string, suite: () => void): void {
  // Starting Chromium and signing in take seconds on a 2-core machine.
  describe.skipIf(skipWithout(CHROMIUM, `The browser tests "${name}"`))(name, { timeout: 90_000 }, suite);
}

/** A headless Chromium with a fresh profile; close it after the suite. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath!,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
