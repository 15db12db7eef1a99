import type { TokenVerdict } from './connection';

/** The web shell's token check (src/main/web/token-check.ts) for the page's own token. */
export function tokenCheckUrl(location: Pick<Location, 'protocol' | 'host'>, token: string): string {
  return `${location.protocol}//${location.host}/token-check?token=${encodeURIComponent(token)}`;
}

/** 204: the token is good (the socket failed for another reason); 401: it is not; else unknown. */
export async function checkToken(url: string, fetchImpl: typeof fetch = fetch): Promise<TokenVerdict> {
  try {
    const response = await fetchImpl(url, { cache: 'no-store' });
    if (response.status === 204) return 'valid';
    if (response.status === 401) return 'invalid';
    return 'unknown';
  } catch {
    return 'unknown'; // nothing answered: the shell is down, so keep trying
  }
}
