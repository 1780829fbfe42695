#!/usr/bin/env node
/** `storefront-themes`: see `storefront-themes --help`, and docs/themes-cli.md for the whole story. */
import { run } from './cli/run.js';

process.exitCode = await run(process.argv.slice(2), { env: process.env, cwd: process.cwd() });
