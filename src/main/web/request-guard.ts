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

/**
 * The headers the checks above read, each of which must come at most once. Node keeps the first
 * of two Host headers and joins two Origins with a comma, while a proxy or another parser in the
 * way may act on the other one: a request that says two things is refused rather than read one way.
 */
const SINGLE_HEADERS = ['host', 'origin'] as const;

/** The first of `host` / `origin` sent more than once, from the headers exactly as received; null when none is. */
export function repeatedHeader(rawHeaders: readonly string[]): string | null {
  const seen = new Set<string>();
  // rawHeaders alternates name, value.
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!(SINGLE_HEADERS as readonly string[]).includes(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

/** Constant-time token check (hashing first makes the lengths equal). */
export function tokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
