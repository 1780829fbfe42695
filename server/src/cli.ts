#!/usr/bin/env node
/**
 * The bin, `storefront-server`: turns on Node's compile cache, then runs the command (`server-command.ts`), which
 * must load after it for its code to be cached.
 *
 * The cache (Node ≥ 22.8; `module.enableCompileCache()`, as TypeScript's `tsc` does) keeps V8's compiled code of the
 * bin's modules and its dependencies' (pg, the SDK) in the system's temporary directory, so that a start after the
 * first compiles next to nothing: a fifth of the CPU time a PostgreSQL start spends beyond a bare `node:http`
 * server's (`npm run bench -- start-time`). Node checks each entry against its source, and does without the cache
 * where it cannot write one; on Node 20 the function does not exist and nothing changes. `NODE_COMPILE_CACHE=DIR`
 * puts the cache elsewhere, `NODE_DISABLE_COMPILE_CACHE=1` turns it off.
 */
import module from 'node:module';

// Node 20's types (which the package builds against) do not declare it.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./server-command.js');
