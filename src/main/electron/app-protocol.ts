import { arrayBuffer } from 'node:stream/consumers';
import { CONTENT_SECURITY_POLICY } from '../renderer-host/csp';
import { lookupStatic, openStatic, type StaticLookup } from '../renderer-host/static-files';

/**
 * The packaged renderer is served from app://waypoint/ instead of file://: a file:// page can
 * read any file:// URL once the page is compromised, and with the
 * grantFileProtocolExtraPrivileges fuse off (electron-builder.yml) a file:// page cannot even
 * load its own module scripts. This scheme serves exactly the files of out/renderer.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'waypoint';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** For protocol.registerSchemesAsPrivileged, before app ready: a secure, standard origin. */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
} as const;

function refusal(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': CONTENT_SECURITY_POLICY },
  });
}

/**
 * The handler for protocol.handle(APP_SCHEME, ...): GET/HEAD of files under `rendererDir` on
 * host `waypoint` only, with the app's CSP on every response; traversal, symlinks out of the
 * folder and other hosts are refused (the same lookup the web shell uses).
 */
export function createAppProtocolHandler(
  rendererDir: string,
  // A parameter so a test can change the folder between the lookup and the read, as a racing
  // process would; the app always uses lookupStatic.
  lookup: (root: string, urlPath: string) => Promise<StaticLookup> = lookupStatic,
): (request: Request) => Promise<Response> {
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return refusal(400, 'Bad URL.');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return refusal(404, 'Not found.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return refusal(405, 'Method not allowed.');
    const found = await lookup(rendererDir, url.pathname);
    if (found.kind === 'bad_request') return refusal(400, found.reason);
    if (found.kind === 'not_found') return refusal(404, 'Not found.');
    // What is sent is the file the lookup checked, opened and checked again (static-files.ts): a
    // name swapped for a symlink or a second link between the lookup and the read is refused.
    let body: ArrayBuffer | null = null;
    if (request.method !== 'HEAD') {
      const opened = await openStatic(found);
      if (!opened) return refusal(404, 'Not found.');
      body = await arrayBuffer(opened.stream).catch(() => null);
      if (!body) return refusal(404, 'Not found.');
    }
    return new Response(body, {
      status: 200,
      headers: {
        'Content-Type': found.contentType,
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-cache',
      },
    });
  };
}
