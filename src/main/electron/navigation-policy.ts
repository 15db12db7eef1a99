/**
 * Where the renderer comes from: the built files served on app://waypoint/ (app-protocol.ts),
 * or the dev server in `electron-vite dev`.
 */
export type RendererSource = { kind: 'app'; dir: string; url: string } | { kind: 'dev'; url: string };

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Is `url` the app's own page? Same scheme and host for the built renderer (app://waypoint
 * serves nothing but out/renderer), same origin for the dev server. Anything else is foreign.
 */
export function isAppUrl(url: string, source: RendererSource): boolean {
  const target = parse(url);
  const app = parse(source.url);
  if (!target || !app) return false;
  // app: is not a WHATWG special scheme, so URL.origin is "null": compare scheme and host.
  if (source.kind === 'app') return target.protocol === app.protocol && target.host === app.host && !target.username && !target.password;
  return target.origin === app.origin && (target.protocol === 'http:' || target.protocol === 'https:');
}

/**
 * Links the user clicks leave the app for the system browser, but only web links: a
 * `file:`, `javascript:` or custom-scheme URL is never handed to the OS.
 */
export function externalUrlToOpen(url: string): string | null {
  const target = parse(url);
  if (!target || (target.protocol !== 'https:' && target.protocol !== 'http:')) return null;
  if (target.username || target.password) return null;
  return target.href;
}
