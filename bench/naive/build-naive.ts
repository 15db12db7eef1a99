import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles the naive page with esbuild (already installed: tsx runs on it) into a temp folder;
 * returns the file:// URL of its index.html. Production React, like the app's build.
 */
export async function buildNaivePage(): Promise<{ url: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'waypoint-bench-naive-'));
  await build({
    entryPoints: [resolve('bench/naive/naive-page.tsx')],
    bundle: true,
    minify: true,
    format: 'iife',
    jsx: 'automatic',
    outfile: join(dir, 'naive.js'),
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><meta charset="utf-8"><title>naive</title></head><body><div id="root"></div><script src="naive.js"></script></body></html>');
  return { url: `file://${join(dir, 'index.html')}`, dir };
}
