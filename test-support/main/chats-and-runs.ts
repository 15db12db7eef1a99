/** Test support: the chats of record and the loop's runs on them, wired as app/services.ts wires them. */
import { PagedItems } from '../../src/main/store/paging/paged-items';
import { ChatService, type ChatServiceOptions } from '../../src/main/agent/loop/chat-service';
import { ModelFacts } from '../../src/main/agent/model/model-facts';
import { Chats } from '../../src/main/chats/chats';
import type { ToolRegistry } from '../../src/main/tools/tool-registry';
import { noAttachments, noRecovery } from './run-stand-ins';

export type ChatsAndRunsOptions = Omit<ChatServiceOptions, 'chats' | 'models' | 'attachments' | 'recovery' | 'toolsForWorkspace'> & {
  /** The tools every chat gets, whatever its folder (a test's own tools). */
  tools: ToolRegistry;
  /** The folder a new chat works in. */
  workspace: string | null;
  /** The attachment store; a test that attaches nothing goes without one (noAttachments). */
  attachments?: ChatServiceOptions['attachments'];
  /** Recovery; a test of another part goes without its hints and checkpoints (noRecovery). */
  recovery?: ChatServiceOptions['recovery'];
};

export interface ChatsAndRuns {
  chats: Chats;
  chat: ChatService;
  /** The Models API's facts the runs use, and Settings' list of models (ModelFacts.choices). */
  models: ModelFacts;
  /** The chats first, as createServices does: what stopping the runs fires is not news. */
  dispose(): void;
}

export function chatsAndRuns(options: ChatsAndRunsOptions): ChatsAndRuns {
  const { workspace, tools, ...rest } = options;
  const chats = new Chats({ plans: options.plans, workspace, isRunning: (sessionId) => chat.isRunning(sessionId), newItems: () => new PagedItems() });
  const models = new ModelFacts({ baseURL: options.baseURL });
  const chat: ChatService = new ChatService({ ...rest, toolsForWorkspace: () => tools, attachments: options.attachments ?? noAttachments, recovery: options.recovery ?? noRecovery, chats, models });
  return {
    chats,
    chat,
    models,
    dispose() {
      chats.dispose();
      chat.dispose();
    },
  };
}
