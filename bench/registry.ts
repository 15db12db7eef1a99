import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chatIndexBench } from './chat-index';
import { engineBench } from './engine';
import { killReplayBench } from './kill-replay';
import type { Benchmark } from './lib/metric';
import { longChatBench } from './long-chat';
import { mainMemoryBench } from './main-memory';
import { manyChatsBench } from './many-chats';
import { pagedSessionsBench } from './paged-sessions';
import { planLatencyBench } from './plan-latency';
import { promptEconomicsBench } from './prompt-economics';
import { startupBench } from './startup';
import { streamingBench } from './streaming';
import { subAgentsBench } from './sub-agents';
import { virtualisersBench } from './virtualisers';
import { workingChatBench } from './working-chat';
import { worktreeBench } from './worktree';

export interface Entry {
  name: string;
  /** Needs the built app and Chromium. */
  browser: boolean;
  load: () => Promise<Benchmark>;
}

const PERSISTENCE = new URL('./persistence.ts', import.meta.url);

export const BENCHES: Entry[] = [
  { name: 'engine', browser: false, load: async () => engineBench },
  { name: 'prompt', browser: false, load: async () => promptEconomicsBench },
  { name: 'plan-latency', browser: true, load: async () => planLatencyBench },
  { name: 'streaming', browser: true, load: async () => streamingBench },
  { name: 'long-chat', browser: true, load: async () => longChatBench },
  { name: 'working-chat', browser: true, load: async () => workingChatBench },
  { name: 'virtualisers', browser: true, load: async () => virtualisersBench },
  { name: 'startup', browser: true, load: async () => startupBench },
  { name: 'main-memory', browser: false, load: async () => mainMemoryBench },
  { name: 'paged-sessions', browser: false, load: async () => pagedSessionsBench },
  { name: 'kill-replay', browser: false, load: async () => killReplayBench },
  { name: 'chat-index', browser: true, load: async () => chatIndexBench },
  { name: 'many-chats', browser: true, load: async () => manyChatsBench },
  { name: 'worktree', browser: false, load: async () => worktreeBench },
  { name: 'sub-agents', browser: true, load: async () => subAgentsBench },
  // bench/persistence.ts is another engineer's script; run it (in its own process) when present.
  ...(existsSync(fileURLToPath(PERSISTENCE)) ? [{ name: 'persistence', browser: false, load: async () => (await import('./persistence-adapter')).persistenceBench }] : []),
];
