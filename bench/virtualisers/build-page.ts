import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const PRODUCTION = { 'process.env.NODE_ENV': '"production"' };

/**
 * Bundles the virtualiser page (page.tsx, the app's rows and styles) with esbuild into a temp
 * folder; returns the file:// URL of its index.html. Production React, minified, like the app's build.
 */
export async function buildVirtualiserPage(): Promise<{ url: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'waypoint-bench-virtualisers-'));
  await build({
    entryPoints: [resolve('bench/virtualisers/page.tsx')],
    bundle: true,
    minify: true,
    format: 'iife',
    jsx: 'automatic',
    outdir: dir,
    define: PRODUCTION,
    logLevel: 'error',
  });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>virtualisers</title><link rel="stylesheet" href="page.css"></head><body><div id="root"></div><script src="page.js"></script></body></html>',
  );
  return { url: `file://${join(dir, 'index.html')}`, dir };
}

/**
 * What a library adds to the renderer bundle: the exports the transcript uses, bundled alone
 * (minified, tree-shaken, React left out as the app has it anyway), in bytes and gzip -9 bytes.
 */
export async function addedBytes(imports: string): Promise<{ bytes: number; gzip: number }> {
  const out = await build({
    stdin: { contents: `${imports}\nconsole.log(x);`, resolveDir: resolve('.'), loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    external: ['react', 'react-dom'],
    define: PRODUCTION,
    logLevel: 'error',
  });
  const code = out.outputFiles[0]!.contents;
  return { bytes: code.length, gzip: gzipSync(code, { level: 9 }).length };
}
