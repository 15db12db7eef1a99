/** Integration setup for recovery tests: real SDK, scripted server, PlanService, workspace tools, temp dirs. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../scripted-api/server';
import type { Scenario } from '../scripted-api/scenario';
import type { Settings } from '../../src/shared/settings';
import { chatsAndRuns, type ChatsAndRuns } from './chats-and-runs';
import { EventRecorder, keySource, settingsSource } from './chat-test-harness';
import type { ToolDefinition } from '../../src/main/tools/tool';
import { ToolRegistry } from '../../src/main/tools/tool-registry';
import { PlanService } from '../../src/main/plan/plan-service';
import { createWorkspaceTools } from '../../src/main/tools/workspace';
import { RecoveryService } from '../../src/main/recovery/recovery-service';

const KEY = 'waypoint-test-recovery-key-0123456789';
const open: { service: ChatsAndRuns; server: ScriptedServer; recovery: RecoveryService; dirs: string[] }[] = [];

export async function closeRecoveryChats(): Promise<void> {
  for (const { service, server, recovery, dirs } of open.splice(0)) {
    service.dispose();
    recovery.dispose();
    await server.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export interface RecoveryChatOptions {
  settings?: Partial<Settings>;
  files?: Record<string, string>;
  extraTools?: ToolDefinition[];
}

export async function startRecoveryChat(scenario: Scenario, opts: RecoveryChatOptions = {}) {
  const server = await startScriptedServer({ scenario, requireApiKey: KEY });
  const dataDir = mkdtempSync(join(tmpdir(), 'wp-recovery-data-'));
  const workspace = mkdtempSync(join(tmpdir(), 'wp-recovery-ws-'));
  for (const [rel, text] of Object.entries(opts.files ?? {})) writeFileSync(join(workspace, rel), text);
  const registry = new ToolRegistry();
  for (const tool of [...createWorkspaceTools(workspace), ...(opts.extraTools ?? [])]) registry.register(tool);
  const plans = new PlanService({ dataDir });
  const recovery = new RecoveryService({ plans, dataDir });
  const settings = settingsSource({ autoApproveEdits: true, retryDelayMs: 5, ...opts.settings });
  const loop = chatsAndRuns({
    settings,
    apiKey: keySource(KEY),
    plans,
    tools: registry,
    recovery,
    baseURL: server.url,
    workspace,
    stallTimeoutMs: 2_000,
    sdkMaxRetries: 0,
  });
  open.push({ service: loop, server, recovery, dirs: [dataDir, workspace] });
  const recorder = new EventRecorder();
  loop.chats.onEvent(recorder.listener);
  const session = loop.chats.newSession();
  const { chats, chat: service } = loop;
  return { server, service, chats, recorder, session, plans, recovery, settings, dataDir, workspace };
}
