import { build } from 'esbuild';
const r = await build({ entryPoints: ['/work/main/sdk/src/index.ts'], bundle: true, minify: true, platform: 'browser', format: 'esm', target: 'es2022', write: false, metafile: true, logLevel: 'silent' });
const rows=[];for (const o of Object.values(r.metafile.outputs)) for (const [i,{bytesInOutput}] of Object.entries(o.inputs)) rows.push([bytesInOutput,i.replace(/.*sdk\/src\//,'')]);
rows.sort((a,b)=>b[0]-a[0]); for (const [b,i] of rows.slice(0,45)) console.log(String(b).padStart(6),i);
