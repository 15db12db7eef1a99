import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The one path the browser is sent back to; anything else is not this sign-in's answer. */
export const CALLBACK_PATH = '/waypoint/oauth/callback';

/** A sign-in that ended without tokens; its message is shown in Settings as it stands. */
export class SignInRefused extends Error {
  override name = 'SignInRefused';
}

export interface LoopbackRedirect {
  /** http://127.0.0.1:PORT/…: the redirect_uri of this sign-in only. */
  readonly redirectUrl: string;
  /** The authorization code, or a SignInRefused saying why there is none. */
  readonly code: Promise<string>;
  /** Stops listening (idempotent); a pending `code` is refused as cancelled. */
  close(): void;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;

/**
 * A listener on 127.0.0.1 with a port of the system's choosing, for one sign-in (RFC 8252's
 * loopback redirect): the first request to its path settles it and it closes. It checks
 * `state` before anything else, so an answer meant for another sign-in (or forged by a page
 * that guessed the port) is refused before its code is ever used.
 */
export async function openLoopbackRedirect(expectedState: string, timeoutMs: number): Promise<LoopbackRedirect> {
  let settle: { resolve(code: string): void; reject(error: SignInRefused): void } | null = null;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody may be awaiting yet when a stray request refuses it.
  code.catch(() => undefined);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const answer = (status: number, title: string, text: string) =>
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(PAGE(title, text));
    if (url.pathname === '/favicon.ico') return void res.writeHead(404).end();
    if (req.method !== 'GET') return void res.writeHead(405, { Allow: 'GET' }).end();
    if (url.pathname !== CALLBACK_PATH) {
      answer(404, 'Not a sign-in address', 'Waypoint did not expect this address. Start the sign-in again from Waypoint.');
      return finish(new SignInRefused(`The sign-in was refused: the server sent the browser back to an unexpected address (${url.pathname}). Nothing was stored.`));
    }
    const params = url.searchParams;
    if (params.get('state') !== expectedState) {
      answer(400, 'Sign-in refused', 'This answer does not belong to the sign-in Waypoint started. Start it again from Waypoint.');
      return finish(new SignInRefused("The sign-in was refused: the browser came back with another sign-in's state (an old or forged sign-in page). Nothing was stored."));
    }
    const error = params.get('error');
    if (error) {
      const description = params.get('error_description');
      answer(400, 'Sign-in refused', 'The server did not grant access. You can close this tab.');
      return finish(new SignInRefused(`The server refused the sign-in (${error}${description ? `: ${description}` : ''}). Nothing was stored.`));
    }
    const given = params.get('code');
    if (!given) {
      answer(400, 'Sign-in refused', 'The answer carried no authorization code. Start the sign-in again from Waypoint.');
      return finish(new SignInRefused('The sign-in was refused: the server sent no authorization code back. Nothing was stored.'));
    }
    answer(200, 'Back to Waypoint', 'Waypoint has the answer of the sign-in. You can close this tab.');
    finish(given);
  });

  const timer = setTimeout(() => finish(new SignInRefused(`No sign-in came back within ${Math.round(timeoutMs / 1000)} s; nothing was stored. Press "Sign in" to try again.`)), timeoutMs);
  timer.unref();

  function finish(result: string | SignInRefused): void {
    const pending = settle;
    if (!pending) return;
    settle = null;
    clearTimeout(timer);
    if (typeof result === 'string') pending.resolve(result);
    else pending.reject(result);
    // Let the answer page go out, then stop listening: one sign-in, one request.
    server.close();
    setImmediate(() => server.closeAllConnections());
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    code,
    close: () => finish(new SignInRefused('The sign-in was cancelled; nothing was stored.')),
  };
}
