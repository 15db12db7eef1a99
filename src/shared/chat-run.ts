import type { RunState, SessionSummary } from './transcript';

/** A chat's state in the sidebar (`data-run` on its listitem, docs/contract.md §8). */
export type ChatRun = 'idle' | 'working' | 'queued' | 'needs-you';

/**
 * What the sidebar says of a chat: "Needs you" while a person is asked something (a pending
 * question of the chat, or a run waiting on one), "Working" while a run goes, "Queued" while its
 * message waits for a slot of "Runs at once". The live run state wins; before any event of the
 * chat (just after a reload) the list's own stamp says it.
 */
export function chatRun(summary: SessionSummary, runState: RunState | undefined, asking: boolean): ChatRun {
  if (asking || runState?.status.startsWith('awaiting_')) return 'needs-you';
  if (runState && runState.status !== 'idle') return 'working';
  if (!runState && summary.run) return summary.run;
  return summary.queued ? 'queued' : 'idle';
}
