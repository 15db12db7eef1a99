import type { WaypointEvent } from '../../shared/contract';
import type { SettingsView } from '../../shared/settings';
import { ChatService } from '../agent/chat-service';
import { ToolRegistry } from '../agent/tool-registry';
import { createWorkspaceTools } from '../tools/workspace';
import { DisposableStore, Emitter } from '../common/emitter';
import { PlanService } from '../plan/plan-service';
import { SettingsStore } from '../sessions/settings-store';
import { ApiKeyStore, type SecretStore } from './api-key-store';
import type { AppServices } from './app-services';
import { APP_VERSION } from './app-version';
import { createCallRouter, UserFacingError, type CallHandlers } from './call-router';
import { loadMcpConfigFile } from './mcp-config-file';
import { exportPlanMarkdown } from './plan-export';

export type { AppServices } from './app-services';

export interface ServicesOptions {
  dataDir: string;
  workspace: string | null;
  shell: 'electron' | 'web';
  secretStore: SecretStore;
  env?: NodeJS.ProcessEnv;
  mcpConfigPath?: string;
}

/**
 * The one place the app is put together. Both shells call this and only forward calls and
 * events, so Electron and the browser tab run exactly the same services.
 */
export async function createServices(options: ServicesOptions): Promise<AppServices> {
  const env = options.env ?? process.env;
  // Validate an --mcp-config file up front: a typo should stop startup with a clear message.
  // (Its servers join the registry once an MCP client exists in src/main/tools/mcp.)
  if (options.mcpConfigPath) await loadMcpConfigFile(options.mcpConfigPath);
  const settings = await SettingsStore.open(options.dataDir);
  const apiKey = new ApiKeyStore(options.secretStore, env);
  const plans = new PlanService({ dataDir: options.dataDir });
  const tools = new ToolRegistry();
  // Workspace tools exist only when there is a workspace to confine them to.
  if (options.workspace) for (const tool of createWorkspaceTools(options.workspace)) tools.register(tool);
  const chat = new ChatService({
    settings,
    apiKey,
    plans,
    tools,
    baseURL: env.ANTHROPIC_BASE_URL,
    workspace: options.workspace,
  });

  const events = new Emitter<WaypointEvent>();
  const subscriptions = new DisposableStore();
  const view = (): SettingsView => ({ settings: settings.get(), apiKey: apiKey.state() });
  const announceSettings = () => events.fire({ type: 'settings_updated', view: view() });

  subscriptions.add(chat.onEvent((event) => events.fire(event)));
  subscriptions.add(
    plans.onPlanUpdated(({ sessionId, version, plan }) => events.fire({ type: 'plan_updated', sessionId, version, plan })),
  );
  subscriptions.add(settings.onDidChange(announceSettings));
  subscriptions.add(apiKey.onDidChange(announceSettings));

  const handlers: CallHandlers = {
    getAppInfo: () => ({ shell: options.shell, version: APP_VERSION, workspace: options.workspace }),
    listSessions: () => ({ sessions: chat.listSessions() }),
    getSession: ({ sessionId }) => chat.getSession(sessionId),
    newSession: () => chat.newSession(),
    sendMessage: ({ sessionId, text }) => chat.sendMessage(sessionId, text),
    stop: ({ sessionId }) => chat.stop(sessionId),
    getSettings: view,
    setSettings: async ({ patch }) => {
      await settings.update(patch);
      return view();
    },
    setApiKey: ({ apiKey: key }) => apiKey.set(key),
    listModels: () => chat.listModels(),
    getPlan: ({ sessionId }) => ({ plan: plans.getPlan(sessionId) }),
    retryRun: ({ sessionId }) => chat.retryRun(sessionId),
    exportPlan: ({ sessionId }) => exportPlanMarkdown(plans.getPlan(sessionId)),
    // Being built now (approvals, escalation, undo, chat management, MCP, workspace per chat).
    answerApproval: notYet('answerApproval'),
    answerEscalation: notYet('answerEscalation'),
    previewUndoPlan: notYet('previewUndoPlan'),
    undoPlan: notYet('undoPlan'),
    renameSession: notYet('renameSession'),
    deleteSession: notYet('deleteSession'),
    searchSessions: notYet('searchSessions'),
    getMcpStates: notYet('getMcpStates'),
    restartMcpServer: notYet('restartMcpServer'),
    chooseWorkspace: notYet('chooseWorkspace'),
  };

  let disposed: Promise<void> | null = null;
  return {
    router: createCallRouter(handlers),
    onEvent: events.event,
    dispose() {
      disposed ??= (async () => {
        subscriptions.dispose();
        chat.dispose();
        events.dispose();
        settings.dispose();
        apiKey.dispose();
      })();
      return disposed;
    },
  };
}

function notYet(name: string): () => never {
  return () => {
    throw new UserFacingError('not_found', `"${name}" is not available in this version of Waypoint yet.`);
  };
}
