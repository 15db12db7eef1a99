import type { ApiKeyState } from '../../../../shared/settings';

/** Says whether a key is set and where it came from; the key itself never reaches the renderer. */
export function apiKeyStatusText(state: ApiKeyState): string {
  switch (state.source) {
    case 'env':
      return 'A key is set from the ANTHROPIC_API_KEY environment variable.';
    case 'settings':
      return 'A key is saved in Settings. Type a new one to replace it.';
    case 'none':
      return 'No key is set.';
  }
}

/**
 * What the shell really does with a key typed in the app (first run and Settings). The desktop
 * app encrypts it with the OS keychain through Electron's safeStorage (held in memory only where
 * the system has no keychain); the web shell never writes it anywhere.
 */
export function keyStorageText(shell: 'electron' | 'web' | undefined): string {
  const main = "Waypoint's backend uses it to call Claude; this page never gets it back.";
  if (shell === 'electron') {
    return `${main} The desktop app saves it encrypted with your system's keychain (Electron safeStorage); where there is no keychain, it is kept in memory only until you quit.`;
  }
  return `${main} This web shell keeps it in memory only, for this run: after a restart you enter it again (or start the shell with ANTHROPIC_API_KEY set).`;
}
