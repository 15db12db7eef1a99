import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RendererSource } from './navigation-policy';

/** The dev server URL (electron-vite dev, unpackaged only) or the built out/renderer/index.html. */
export function rendererSource(mainDir: string, env: NodeJS.ProcessEnv, isPackaged: boolean): RendererSource {
  const devUrl = env.ELECTRON_RENDERER_URL;
  if (!isPackaged && devUrl) return { kind: 'dev', url: devUrl };
  const path = join(mainDir, '..', 'renderer', 'index.html');
  return { kind: 'file', path, url: pathToFileURL(path).href };
}
