import type { WaypointEvent } from '../../shared/contract';
import type { TranscriptItem } from '../../shared/transcript';
import { closeOpenToolUses, unansweredToolUses } from '../agent/history';
import { ChatSession } from '../agent/session-state';
import { noticeItem } from '../agent/transcript-items';
import type { ReplayedChat } from './replay';

export const INTERRUPTED_RESULT = 'Interrupted: Waypoint was closed before this tool call finished, so it may not have run.';
export const INTERRUPTED_NOTICE = 'Waypoint was closed while Claude was working. Press Resume to continue from where it stopped.';

export interface RestoredChat {
  session: ChatSession;
  /** Items changed to close an interrupted run (to log as the fix-up). */
  fixedItems: TranscriptItem[];
}

/**
 * A live ChatSession from a replayed log. A run the log saw start but not end was cut off by a
 * crash or kill: open tool calls get an is_error "interrupted" result (no orphan tool_use), the
 * half-streamed reply is marked as cut off (its text never reached the API history, so a resume
 * cannot repeat it), and the chat is marked interrupted when there is something to resume.
 * A run paused on a question (approval, escalation) is not cut off: the question stays pending.
 */
export function restoreChat(chat: ReplayedChat): RestoredChat {
  const session = new ChatSession({ ...chat.summary, ...(chat.stepCosts && Object.keys(chat.stepCosts).length ? { stepCosts: chat.stepCosts } : {}) });
  const id = chat.summary.id;
  for (const item of chat.transcript) session.apply({ type: 'transcript_item', sessionId: id, item });
  session.history.push(...chat.history);
  for (const event of chat.prompts) session.apply(event as WaypointEvent);

  const fixedItems: TranscriptItem[] = [];
  const pending = hasPendingPrompt(session);
  if (chat.runState.status === 'idle' || pending) return { session, fixedItems };

  for (const item of session.transcript) {
    if (item.kind === 'assistant' && item.status === 'streaming') fixedItems.push({ ...item, status: 'error' });
    if (item.kind === 'tool_call' && (item.status === 'running' || item.status === 'awaiting_approval')) {
      fixedItems.push({ ...item, status: 'error', result: INTERRUPTED_RESULT });
    }
  }
  if (unansweredToolUses(session.history).length) closeOpenToolUses(session.history, INTERRUPTED_RESULT);
  const resumable = session.history.at(-1)?.role === 'user';
  if (resumable) fixedItems.push(noticeItem('warning', INTERRUPTED_NOTICE, 'interrupted'));
  for (const item of fixedItems) session.apply({ type: 'transcript_item', sessionId: id, item });
  session.summary = { ...session.summary, interrupted: resumable };
  return { session, fixedItems };
}

function hasPendingPrompt(session: ChatSession): boolean {
  const s = session as unknown as { pendingApproval?: unknown; pendingEscalation?: unknown };
  return !!s.pendingApproval || !!s.pendingEscalation;
}
