/** Where the tab keeps the web shell's token once it is out of the address bar. */
export const TOKEN_KEY = 'waypoint.webToken';

export interface PageTokenHost {
  location: Pick<Location, 'href' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/**
 * The web shell's access token for this tab. It arrives in the URL the shell printed
 * (`?token=…`), where it would stay in the address bar, the history, screenshots and a shared
 * screen. So the page takes it out of the URL (history.replaceState, no reload) and keeps it in
 * sessionStorage: a reload of this tab still has it, and the printed URL pasted into a new tab
 * still works, since it carries the token itself. A token in the URL wins over the kept one (a
 * newer link pasted into a tab that held a stale one). Not a cookie: cookies are shared by every
 * port of 127.0.0.1, so any other local server would be sent it; sessionStorage is this origin's,
 * port included, and this tab's alone (docs/security.md).
 */
export function takePageToken(host: PageTokenHost): string {
  const fromUrl = new URLSearchParams(host.location.search).get('token');
  if (fromUrl === null) return host.sessionStorage?.getItem(TOKEN_KEY) ?? '';
  try {
    host.sessionStorage?.setItem(TOKEN_KEY, fromUrl);
  } catch {
    return fromUrl; // storage refused (quota, privacy mode): keep the URL as it is, so a reload still works
  }
  const url = new URL(host.location.href);
  url.searchParams.delete('token');
  host.history.replaceState(host.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return fromUrl;
}
