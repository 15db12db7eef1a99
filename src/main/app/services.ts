import type { WaypointEvent } from '../../shared/contract';
import type { SettingsView } from '../../shared/settings';
import { ChatService } from '../agent/chat-service';
import { ToolRegistry } from '../agent/tool-registry';
import { DisposableStore, Emitter } from '../common/emitter';
import { PlanService } from '../plan/plan-service';
import { RecoveryService } from '../recovery/recovery-service';
import { SessionPersistence } from '../sessions/session-persistence';
import { SettingsStore } from '../sessions/settings-store';
import { ApiKeyStore, type SecretStore } from './api-key-store';
import type { AppServices } from './app-services';
import { APP_VERSION } from './app-version';
import { apiRetryFromEnv } from './api-retry-env';
import { createCallRouter, type CallHandlers } from './call-router';
import { loadMcpConfigFile } from './mcp-config-file';
import { McpService } from './mcp-service';
import { chooseWorkspace, type PickFolder } from './workspace-choice';
import { WorkspaceToolRegistries } from './workspace-tools';
import { exportPlanMarkdown } from './plan-export';

export type { AppServices } from './app-services';

export interface ServicesOptions {
  dataDir: string;
  workspace: string | null;
  shell: 'electron' | 'web';
  secretStore: SecretStore;
  env?: NodeJS.ProcessEnv;
  mcpConfigPath?: string;
  /** Electron's folder dialog for chooseWorkspace; the web shell has none (--workspace). */
  pickFolder?: PickFolder;
}

/**
 * The one place the app is put together. Both shells call this and only forward calls and
 * events, so Electron and the browser tab run exactly the same services.
 */
export async function createServices(options: ServicesOptions): Promise<AppServices> {
  const env = options.env ?? process.env;
  // Validate an --mcp-config file up front: a typo should stop startup with a clear message.
  const fileServers = options.mcpConfigPath ? await loadMcpConfigFile(options.mcpConfigPath) : {};
  const settings = await SettingsStore.open(options.dataDir);
  const apiKey = new ApiKeyStore(options.secretStore, env);
  const plans = new PlanService({ dataDir: options.dataDir });
  // Shared tools (MCP); each chat adds the workspace tools of its own folder on top.
  const tools = new ToolRegistry();
  const workspaces = new WorkspaceToolRegistries(tools);
  const mcp = new McpService(tools, fileServers);
  const recovery = new RecoveryService({ plans, dataDir: options.dataDir });
  const chat = new ChatService({
    settings,
    apiKey,
    plans,
    tools,
    recovery,
    apiRetry: apiRetryFromEnv(env),
    baseURL: env.ANTHROPIC_BASE_URL,
    workspace: options.workspace,
    toolsForWorkspace: (root) => workspaces.forRoot(root),
  });
  // Every chat comes back from its log before the first call is answered.
  const sessions = await SessionPersistence.open({ dataDir: options.dataDir, chat, plans });

  const events = new Emitter<WaypointEvent>();
  const subscriptions = new DisposableStore();
  const view = (): SettingsView => ({ settings: settings.get(), apiKey: apiKey.state() });
  const announceSettings = () => events.fire({ type: 'settings_updated', view: view() });

  subscriptions.add(chat.onEvent((event) => events.fire(event)));
  subscriptions.add(
    plans.onPlanUpdated(({ sessionId, version, plan }) => events.fire({ type: 'plan_updated', sessionId, version, plan })),
  );
  subscriptions.add(settings.onDidChange(announceSettings));
  subscriptions.add(mcp.onDidChange((servers) => events.fire({ type: 'mcp_state', servers })));
  subscriptions.add(settings.onDidChange((next) => mcp.apply(next.mcpServers)));
  mcp.apply(settings.get().mcpServers); // in the background: start-up never waits for a server
  subscriptions.add(apiKey.onDidChange(announceSettings));

  const handlers: CallHandlers = {
    getAppInfo: () => ({
      shell: options.shell,
      version: APP_VERSION,
      workspace: options.workspace,
      ...(settings.loadStatus.kind === 'reset' ? { settingsReset: { reason: settings.loadStatus.reason, backupPath: settings.loadStatus.backupPath } } : {}),
    }),
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
    answerApproval: ({ sessionId, requestId, decision }) => chat.answerApproval(sessionId, requestId, decision),
    answerEscalation: ({ sessionId, requestId, answer }) => chat.answerEscalation(sessionId, requestId, answer),
    previewUndoPlan: async ({ sessionId }) => ({ files: await recovery.previewUndo(sessionId, chat.getSession(sessionId).session.workspace ?? null) }),
    undoPlan: ({ sessionId, overwriteChangedOutside }) =>
      recovery.undo(sessionId, chat.getSession(sessionId).session.workspace ?? null, overwriteChangedOutside),
    renameSession: ({ sessionId, title }) => sessions.renameSession(sessionId, title),
    deleteSession: async ({ sessionId }) => ({ deleted: await sessions.deleteSession(sessionId) }),
    searchSessions: ({ query }) => ({ results: sessions.search(query) }),
    getMcpStates: () => ({ servers: mcp.states() }),
    restartMcpServer: ({ name }) => ({ restarted: mcp.restart(name) }),
    chooseWorkspace: ({ sessionId }) => chooseWorkspace(chat, options.pickFolder, sessionId),
  };

  let disposed: Promise<void> | null = null;
  return {
    router: createCallRouter(handlers),
    onEvent: events.event,
    dispose() {
      disposed ??= (async () => {
        subscriptions.dispose();
        await sessions.dispose();
        chat.dispose();
        recovery.dispose();
        await mcp.dispose();
        events.dispose();
        settings.dispose();
        apiKey.dispose();
      })();
      return disposed;
    },
  };
}
