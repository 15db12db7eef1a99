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
