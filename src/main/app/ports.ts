import type { ApiKeyState, Settings } from '../../shared/settings';
import type { Disposable } from '../common/emitter';

/** Settings as services read them; the store behind it owns validation and persistence. */
export interface SettingsSource {
  get(): Settings;
  onDidChange(listener: (settings: Settings) => void): Disposable;
}

/**
 * The API key, readable only in main. The renderer only ever learns ApiKeyState.
 * A key typed in Settings wins over ANTHROPIC_API_KEY from the environment.
 */
export interface ApiKeySource {
  getKey(): string | null;
  state(): ApiKeyState;
}
