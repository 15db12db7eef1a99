import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { Plan } from '../../../shared/plan';
import { editNote, toldVersion } from '../../../shared/plan-edit';
import type { ChatSession } from '../../chats/chat-session';

/**
 * Claude learns of the user's edits in its very next request, a tool-result request included
 * (docs/contract.md §2): a text block at the end of the last user message, "The user edited the plan:
 * …". The note goes into the history itself, so the log keeps it and later requests repeat it
 * byte for byte (prompt cache). What Claude was already told is read back from the history (the
 * note ends with the plan version), so nothing is told twice or lost across a restart.
 */
export function deliverEditNotes(session: Pick<ChatSession, 'history' | 'appendUser'>, plan: Plan | null): string | null {
  const edits = plan?.edits;
  if (!plan || !edits?.length) return null;
  const told = lastToldVersion(session.history);
  const fresh = edits.filter((edit) => edit.version > told);
  if (fresh.length === 0) return null;
  const note = editNote(fresh, plan.version);
  session.appendUser([{ type: 'text', text: note }]);
  return note;
}

/** The plan version of the newest edit note in the history (0 when there is none). */
function lastToldVersion(history: readonly MessageParam[]): number {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i] as MessageParam;
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (let j = message.content.length - 1; j >= 0; j--) {
      const block = message.content[j];
      const version = block?.type === 'text' ? toldVersion(block.text) : null;
      if (version !== null) return version;
    }
  }
  return 0;
}
