import type { Dialect } from '../../shared/plan';
import type { Settings } from '../../shared/settings';
import { ChatService } from '../agent/chat-service';
import { PlanService } from '../plan/plan-service';
import { ApiKeyStore, MemorySecretStore } from '../settings/api-key-store';
import type { InboxReply, TakenRequest } from '../store/chat-inbox';
import { ChatLogs } from '../store/chat-logs';
import { SettingsStore } from '../settings/settings-store';
import { ToolRegistry } from '../tools/tool-registry';

export interface PlanningServicesOptions {
  dataDir: string;
  /** The planning style to offer; the one in Settings when absent. */
  style: Dialect | null;
  /** Who this process is, in lock files and messages ("waypoint mcp"). */
  holder: string;
  warn?: (message: string) => void;
  /** Requests the app sends for the chats this process writes (chat-inbox.ts). */
  onRequest?: (sessionId: string, taken: TakenRequest) => InboxReply | void;
}

export interface PlanningServices {
  plans: PlanService;
  chat: ChatService;
  sessions: ChatLogs;
  style: Dialect;
  settings(): Settings;
  dispose(): Promise<void>;
}

/**
 * The plan engine and the chats of record without the conversation loop: what `waypoint mcp`
 * serves to another agent. Same engine, same dialect tools, same event logs as the app; no API
 * key, no MCP clients of its own, and nothing here ever calls Claude.
 */
export async function createPlanningServices(options: PlanningServicesOptions): Promise<PlanningServices> {
  const settings = await SettingsStore.open(options.dataDir);
  const style = options.style ?? settings.get().planningStyle;
  const plans = new PlanService({ dataDir: options.dataDir });
  const chat = new ChatService({
    settings,
    // No key is read: this process never sends a request.
    apiKey: new ApiKeyStore(new MemorySecretStore(), {}),
    plans,
    tools: new ToolRegistry(),
    workspace: null,
  });
  // It holds its client's chat for as long as it serves (no follow: it has no window).
  const sessions = await ChatLogs.open({
    dataDir: options.dataDir,
    chat,
    plans,
    holder: options.holder,
    ...(options.warn ? { warn: options.warn } : {}),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  });
  let disposed: Promise<void> | null = null;
  return {
    plans,
    chat,
    sessions,
    style,
    settings: () => settings.get(),
    dispose() {
      disposed ??= (async () => {
        await sessions.dispose();
        chat.dispose();
        plans.dispose();
        settings.dispose();
      })();
      return disposed;
    },
  };
}
