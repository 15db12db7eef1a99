import { createHash, timingSafeEqual } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import { CONTENT_SECURITY_POLICY } from '../renderer-host/csp';

/** Headers on every response of the web shell. Deliberately no CORS headers. */
export function securityHeaders(): OutgoingHttpHeaders {
  return {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

/**
 * DNS-rebinding defence: a page on evil.example that resolves to 127.0.0.1 still sends
 * `Host: evil.example`, so only our own loopback names with our port are served.
 */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/**
 * Browsers always send Origin on a WebSocket handshake, so a foreign page is refused here.
 * A client without Origin is not a browser (and could forge any Origin anyway): the token
 * is what authenticates it.
 */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

/** Constant-time token check (hashing first makes the lengths equal). */
export function tokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
