import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time under `dir` (0 when missing). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Runs `electron-vite build` when out/ is missing or older than src/: browser benches need it. */
export function ensureBuilt(): void {
  const built = existsSync('out/main/web.js') && existsSync('out/renderer/index.html');
  if (built && newest('out') >= newest('src')) return;
  console.log('[bench] out/ is missing or older than src/: running electron-vite build …');
  const result = spawnSync('npx', ['electron-vite', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('electron-vite build failed; fix the build before benchmarking.');
}
