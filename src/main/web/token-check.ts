import type { ServerResponse } from 'node:http';
import { securityHeaders, tokenMatches } from './request-guard';

/**
 * GET /token-check?token=…: 204 when the token is this start's, 401 otherwise. A browser cannot
 * see why a WebSocket handshake failed, so the page asks here after a failed connect: a 401 means
 * the link is stale (the shell restarted with a new token) and retrying is pointless; no answer
 * at all means the shell is down, and retrying is right. It tells nothing the socket wouldn't.
 */
export const TOKEN_CHECK_PATH = '/token-check';

export function answerTokenCheck(res: ServerResponse, given: string | null, token: string): void {
  res.writeHead(tokenMatches(given, token) ? 204 : 401, { ...securityHeaders(), 'Cache-Control': 'no-store' });
  res.end();
}
