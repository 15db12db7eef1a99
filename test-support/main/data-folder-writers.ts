/**
 * Test support: several instances of the app's persistence (chats, runs, plans and ChatLogs) on one
 * temporary data folder, in one process. Each has its own lock token, so each sees the others as
 * live writers, as separate processes would. The folder is made before and removed after each test,
 * and every instance still open is closed (last opened first) before it is removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { WaypointEvent } from '../../src/shared/contract';
import type { ChatService } from '../../src/main/agent/loop/chat-service';
import type { Chats } from '../../src/main/chats/chats';
import type { Instance } from './persistence-test-kit';
import { PlanService } from '../../src/main/plan/plan-service';
import { ChatLogs, type ChatLogsOptions } from '../../src/main/store/chat-logs';
import { ToolRegistry } from '../../src/main/tools/tool-registry';
import { keySource, settingsSource } from './chat-test-harness';
import { chatsAndRuns } from './chats-and-runs';

/** What persistence-test-kit's instance has, less waiting for a run (these writers run no Claude); `close` may be called more than once. */
export type Writer = Omit<Instance, 'idle'>;

/** ChatLogs options beyond the folder; a function when they need the instance's chats or runs (what a lost lock acts on). */
type WriterOptions = Partial<ChatLogsOptions> | ((parts: { chats: Chats; chat: ChatService }) => Partial<ChatLogsOptions>);

export interface DataFolder {
  /** This test's data folder. */
  readonly dataDir: string;
  /** Where its chats' logs and locks are. */
  readonly sessionsDir: string;
  /** Opens one more writer on the folder; `holder` is how its locks name it. */
  writer(holder: string, options?: WriterOptions): Promise<Writer>;
}

/** Registers the folder's set-up and clean-up around each test of the file that calls it. */
export function useDataFolder(prefix: string): DataFolder {
  let dataDir = '';
  const closers: Array<() => Promise<void>> = [];
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    get dataDir() {
      return dataDir;
    },
    get sessionsDir() {
      return join(dataDir, 'sessions');
    },
    async writer(holder, options = {}) {
      const plans = new PlanService({ dataDir });
      const { chats, chat, dispose: disposeChats } = chatsAndRuns({ settings: settingsSource(), apiKey: keySource(null), plans, tools: new ToolRegistry(), workspace: null });
      const warnings: string[] = [];
      const extra = typeof options === 'function' ? options({ chats, chat }) : options;
      const persistence = await ChatLogs.open({ dataDir, chat: chats, runs: chat, plans, holder, warn: (m) => warnings.push(m), ...extra });
      const events: WaypointEvent[] = [];
      chats.onEvent((e) => events.push(e));
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await persistence.dispose();
        disposeChats();
        plans.dispose();
      };
      closers.push(close);
      return { chats, chat, plans, persistence, events, warnings, close };
    },
  };
}
