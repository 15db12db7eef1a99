import { randomUUID } from 'node:crypto';
import { nowIso } from '../common/transcript-items';
import { earlierTitle } from '../../shared/earlier-version';
import type { ChatItems } from './chat-items';
import { ChatSession } from './chat-session';

/**
 * A copy of a chat at rest, as it is now: its transcript, its API history and its plan, under a
 * new id, titled "… (earlier version)". What an edited message or a retried reply replaces is
 * kept there, never lost. Rules given with "Approve for this chat" stay with the chat they were
 * given in; nothing the copy does reaches the original. `items`: where the copy keeps its transcript.
 */
export function forkChat(source: ChatSession, items: ChatItems): ChatSession {
  const now = nowIso();
  const { approvalRules: _chatOnly, interrupted: _interrupted, skippedLines: _skipped, ...summary } = source.summary;
  const copy = new ChatSession({ ...structuredClone(summary), id: randomUUID(), title: earlierTitle(source.summary.title), updatedAt: now }, items);
  const id = copy.summary.id;
  for (const item of source.transcript) copy.apply({ type: 'transcript_item', sessionId: id, item: structuredClone(item) });
  copy.restoreHistory(structuredClone([...source.history]));
  copy.plan = source.plan ? structuredClone(source.plan) : null;
  return copy;
}
