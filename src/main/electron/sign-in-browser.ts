import { shell } from 'electron';
import { externalUrlToOpen } from './navigation-policy';

/**
 * A remote MCP server's sign-in page, in the system browser: the person pressed "Sign in" for
 * it, so no consent dialog; but only a plain http(s) address leaves the app (the address comes
 * from the server's metadata, which Waypoint does not trust further than that).
 */
export function openSignInPage(url: string): void {
  const target = externalUrlToOpen(url);
  if (!target) {
    console.warn('[waypoint] A sign-in page that is not an http(s) address was not opened.');
    return;
  }
  void shell.openExternal(target).catch((error: unknown) => console.warn('[waypoint] Could not open the sign-in page:', error instanceof Error ? error.message : String(error)));
}
