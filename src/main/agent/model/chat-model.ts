import type { Settings } from '../../../shared/settings';
import type { SessionSummary } from '../../../shared/transcript';

/** The settings a chat's run uses: the chat's own model ("Chat model" in its header) over the default in Settings. */
export function withChatModel(settings: Settings, chat: Pick<SessionSummary, 'model'>): Settings {
  return chat.model ? { ...settings, model: chat.model } : settings;
}
