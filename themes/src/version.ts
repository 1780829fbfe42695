/** The package's version, as package.json has it (a test keeps them equal); shown by --version and sent in User-Agent. */
export const VERSION = '0.2.0';
