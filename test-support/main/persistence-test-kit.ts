/** Test support: a real ChatService + PlanService + ChatLogs on a data dir, restartable. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../scripted-api/server';
import type { Scenario } from '../scripted-api/scenario';
import type { WaypointEvent } from '../../src/shared/contract';
import type { ChatService } from '../../src/main/agent/loop/chat-service';
import type { Chats } from '../../src/main/chats/chats';
import { chatsAndRuns } from './chats-and-runs';
import { keySource, settingsSource } from './chat-test-harness';
import type { ToolDefinition } from '../../src/main/tools/tool';
import { ToolRegistry } from '../../src/main/tools/tool-registry';
import { PlanService } from '../../src/main/plan/plan-service';
import { budgetDefaultsOf } from '../../src/shared/budget';
import { ChatLogs, type ChatLogsOptions } from '../../src/main/store/chat-logs';

export const KIT_KEY = 'waypoint-test-persistence-kit-key';

export interface Instance {
  chats: Chats;
  chat: ChatService;
  plans: PlanService;
  persistence: ChatLogs;
  events: WaypointEvent[];
  warnings: string[];
  close(): Promise<void>;
  /** Resolves when the chat's run has gone back to idle after having started. */
  idle(sessionId: string, timeoutMs?: number): Promise<void>;
}

/** `shell`: the options the windowed shells add (following other processes, giving idle chats back), and paging and disk faults. */
export type ShellOptions = Pick<ChatLogsOptions, 'follow' | 'releaseIdleMs' | 'keepRecent' | 'fs' | 'retryMs'>;

export async function startInstance(dataDir: string, baseURL: string, settings = settingsSource(), tools: ToolDefinition[] = [], shell: ShellOptions = {}): Promise<Instance> {
  const plans = new PlanService({ dataDir, planFirst: () => settings.get().planFirst, budgetDefaults: () => budgetDefaultsOf(settings.get()) });
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  const loop = chatsAndRuns({ settings, apiKey: keySource(KIT_KEY), plans, tools: registry, baseURL, workspace: null, stallTimeoutMs: 2000, sdkMaxRetries: 0 });
  const { chats, chat } = loop;
  const warnings: string[] = [];
  const persistence = await ChatLogs.open({ dataDir, chat: chats, runs: chat, plans, warn: (m) => warnings.push(m), ...shell });
  const events: WaypointEvent[] = [];
  chats.onEvent((e) => events.push(e));
  return {
    chats,
    chat,
    plans,
    persistence,
    events,
    warnings,
    async close() {
      await persistence.dispose();
      loop.dispose();
      plans.dispose();
    },
    async idle(sessionId, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const ran = events.some((e) => e.type === 'run_state' && e.sessionId === sessionId && e.state.status !== 'idle');
        const last = events.filter((e) => e.type === 'run_state' && e.sessionId === sessionId).at(-1);
        if (ran && last?.type === 'run_state' && last.state.status === 'idle') return;
        if (Date.now() > deadline) throw new Error('run did not finish');
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

export function scripted(scenario: Scenario): Promise<ScriptedServer> {
  return startScriptedServer({ scenario });
}

/** What `instancesPerTest` gives a test: its data folder, its server, and instances over them. */
export interface PerTest {
  readonly dir: string;
  readonly server: ScriptedServer;
  /** Instances started and not yet closed: closed after the test (a test that closes one takes it out). */
  readonly open: Instance[];
  start(): Promise<Instance>;
}

/**
 * Per test: a fresh data folder (`prefix`), a scripted server playing `scenario`, and `start()`
 * for instances over both; after the test every instance still open is closed, then the server
 * and the folder go. Call it at a file's top level or in a describe.
 */
export function instancesPerTest(prefix: string, scenario: Scenario): PerTest {
  let dir = '';
  let server: ScriptedServer | undefined;
  const open: Instance[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    server = await scripted(scenario);
  });
  afterEach(async () => {
    for (const i of open.splice(0)) await i.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get server() {
      if (!server) throw new Error('instancesPerTest: no server outside a test');
      return server;
    },
    open,
    async start() {
      const instance = await startInstance(dir, this.server.url);
      open.push(instance);
      return instance;
    },
  };
}
