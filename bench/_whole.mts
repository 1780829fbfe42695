import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const r = await build({ entryPoints: ['/work/main/sdk/src/index.ts'], bundle: true, minify: true, platform: 'browser', format: 'esm', target: 'es2022', write: false, logLevel: 'silent' });
console.log('whole gzip', gzipSync(r.outputFiles[0].contents, { level: 9 }).length, 'budget', 20480);
