import manifest from '../package.json' with { type: 'json' };

/** The package's version, read from its package.json (inlined by the build); shown by --version and sent in User-Agent. */
export const VERSION: string = manifest.version;
