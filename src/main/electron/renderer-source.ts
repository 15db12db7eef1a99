import { join } from 'node:path';
import { APP_INDEX_URL } from './app-protocol';
import type { RendererSource } from './navigation-policy';

/** The dev server URL (electron-vite dev, unpackaged only) or the built out/renderer on app://. */
export function rendererSource(mainDir: string, env: NodeJS.ProcessEnv, isPackaged: boolean): RendererSource {
  const devUrl = env.ELECTRON_RENDERER_URL;
  if (!isPackaged && devUrl) return { kind: 'dev', url: devUrl };
  return { kind: 'app', dir: join(mainDir, '..', 'renderer'), url: APP_INDEX_URL };
}
