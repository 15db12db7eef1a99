import { PagedItems } from '../store/paging/paged-items';
import { UserFacingError } from '../common/errors';
import type { Dialect } from '../../shared/plan';
import type { Settings } from '../../shared/settings';
import { PlanService } from '../plan/plan-service';
import type { InboxReply, TakenRequest } from '../store/chat-inbox';
import { Chats } from '../chats/chats';
import { ChatLogs } from '../store/chat-logs';
import { SettingsStore } from '../settings/settings-store';
import type { ForwardedRequestTarget } from './forwarded-requests';

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
  chats: Chats;
  /** What requests forwarded from other processes act on (forwarded-requests.ts). */
  requests: ForwardedRequestTarget;
  sessions: ChatLogs;
  style: Dialect;
  settings(): Settings;
  dispose(): Promise<void>;
}

/**
 * The plan engine and the chats of record without the conversation loop: what `waypoint mcp`
 * serves to another agent. Same engine, same dialect tools, same event logs as the app; no API
 * key, no MCP clients of its own, and nothing here ever calls Claude: nothing of src/main/agent is
 * imported (planning-services.test.ts checks the module graph).
 */
export async function createPlanningServices(options: PlanningServicesOptions): Promise<PlanningServices> {
  const settings = await SettingsStore.open(options.dataDir);
  const style = options.style ?? settings.get().planningStyle;
  const plans = new PlanService({ dataDir: options.dataDir });
  // No loop: nothing ever runs in a chat here, and nothing reads an API key.
  const chats = new Chats({ plans, workspace: null, isRunning: () => false, newItems: () => new PagedItems() });
  // It holds its client's chat for as long as it serves (no follow: it has no window).
  const sessions = await ChatLogs.open({
    dataDir: options.dataDir,
    chat: chats,
    plans,
    holder: options.holder,
    ...(options.warn ? { warn: options.warn } : {}),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  });
  let disposed: Promise<void> | null = null;
  return {
    plans,
    chats,
    // Nothing runs here, so a forwarded Stop has nothing to stop.
    requests: {
      stop: () => ({ stopped: false }),
      editPlan: (sessionId, request) => chats.editPlan(sessionId, request),
      addNotice: (sessionId, item) => chats.addNotice(sessionId, item),
      // An MCP client's chat never pauses for a person here (no run, no approval, no proposal).
      answerPause: () => {
        throw new UserFacingError('invalid_input', 'Nothing in this chat waits for an answer: its plan is kept for an MCP client, which asks nobody.');
      },
      reviewPlan: () => {
        throw new UserFacingError('invalid_input', 'This chat has no plan proposal waiting: its plan is kept for an MCP client.');
      },
      retryRun: () => ({ started: false }),
    },
    sessions,
    style,
    settings: () => settings.get(),
    dispose() {
      disposed ??= (async () => {
        await sessions.dispose();
        chats.dispose();
        plans.dispose();
        settings.dispose();
      })();
      return disposed;
    },
  };
}
