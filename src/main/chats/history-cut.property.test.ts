import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { historyProblems } from '../../../test-support/main/history-check';
import type { UserItem } from '../../shared/transcript';
import { appendAssistant, appendUser, appendUserText, closeOpenToolUses } from './api-history';
import { cutHistory, locateUserMessages, nextUserMark, userBlocksAt } from './history-cut';
import { PagedItems } from '../store/paging/paged-items';
import { ChatSession } from './chat-session';
import { applyHistoryChange } from './history-change';

// Edit message and Retry reply cut the API history at a user message. Whatever the chat went
// through (tool loops, a Stop mid-tools, failed requests whose messages merged with the next),
// the cut history plus the new message is one the API accepts, and the log tracks the cut.

type Op = 'user' | 'reply' | 'tools' | 'stop' | 'fail';
const ops = fc.array(fc.constantFrom<Op>('user', 'reply', 'tools', 'stop', 'fail', 'user'), { minLength: 1, maxLength: 30 });

/** A chat built with the loop's own history edits; each user message with its mark. */
function chat(sequence: Op[]): { history: MessageParam[]; users: UserItem[] } {
  const history: MessageParam[] = [];
  const users: UserItem[] = [];
  let tool = 0;
  const ask = (n: number) => Array.from({ length: n }, () => ({ type: 'tool_use' as const, id: `toolu_${++tool}`, name: 't', input: {} }));
  for (const op of ['user' as Op, ...sequence]) {
    const last = history.at(-1)?.role;
    if (op === 'user' || op === 'fail') {
      if (op === 'fail' && last !== 'user') continue;
      const text = `message ${users.length}`;
      users.push({ id: `u${users.length}`, kind: 'user', text, createdAt: '', historyAt: nextUserMark(history) });
      appendUserText(history, text);
    } else if (last === 'user' && op === 'reply') {
      appendAssistant(history, [{ type: 'text', text: 'reply' }]);
    } else if (last === 'user' && op === 'tools') {
      const uses = ask(1 + (tool % 3));
      appendAssistant(history, [{ type: 'text', text: 'working' }, ...uses]);
      appendUser(history, [...uses.map((u) => ({ type: 'tool_result' as const, tool_use_id: u.id, content: 'ok' })), ...(tool % 2 ? [{ type: 'text' as const, text: 'nudge' }] : [])]);
    } else if (last === 'user' && op === 'stop') {
      appendAssistant(history, ask(2));
      closeOpenToolUses(history, 'stopped');
    }
  }
  return { history, users };
}

describe('cutting the history at a user message', () => {
  it('leaves a valid history that a new message extends validly, with everything before the message unchanged', () => {
    fc.assert(
      fc.property(ops, fc.nat(), (sequence, pick) => {
        const { history, users } = chat(sequence);
        expect(historyProblems(history)).toEqual([]);
        const user = users[pick % users.length]!;
        const mark = user.historyAt!;
        const before = structuredClone(history.slice(0, mark.message));
        const cut = structuredClone(history);
        cutHistory(cut, mark);
        expect(cut.slice(0, mark.message)).toEqual(before);
        const at = nextUserMark(cut);
        appendUserText(cut, 'edited');
        expect(historyProblems(cut)).toEqual([]);
        expect(cut[0]?.role).toBe('user');
        // The new message starts where the old one did.
        expect(at).toEqual(mark);
        expect(userBlocksAt(cut, at)).toEqual([{ type: 'text', text: 'edited' }]);
      }),
    );
  });

  it('finds each message of an older log (no marks) by its text, where its mark says it is', () => {
    fc.assert(
      fc.property(ops, (sequence) => {
        const { history, users } = chat(sequence);
        const legacy = users.map(({ historyAt: _mark, ...rest }) => rest);
        const found = locateUserMessages(history, legacy);
        for (const user of users) expect(found.get(user.id)).toEqual(user.historyAt);
      }),
    );
  });

  it('a message merged into another (its request failed) is cut from its own block: the one before it stays', () => {
    const history: MessageParam[] = [];
    appendUserText(history, 'first');
    const mark = nextUserMark(history);
    appendUserText(history, 'second');
    expect(mark).toEqual({ message: 0, block: 1 });
    cutHistory(history, mark);
    expect(history).toEqual([{ role: 'user', content: [{ type: 'text', text: 'first' }] }]);
  });
});

describe('the history events of a chat that was cut', () => {
  it('replay to exactly its history, whatever was cut, merged and appended', () => {
    fc.assert(
      fc.property(ops, fc.array(fc.nat(), { maxLength: 4 }), (sequence, edits) => {
        const { history, users } = chat(sequence);
        const session = new ChatSession({ id: 'c', title: 't', createdAt: '', updatedAt: '' }, new PagedItems());
        session.restoreHistory(history);
        // What a log that saw only the events holds.
        const logged: MessageParam[] = structuredClone(history);
        session.onHistoryChange(({ change, origin }) => {
          expect(origin).toBe('chat');
          expect(applyHistoryChange(logged, change)).toBe(true);
        });
        for (const pick of edits) {
          const marks = locateUserMessages(session.history, users);
          const user = users[pick % users.length]!;
          const mark = marks.get(user.id);
          if (!mark) continue;
          session.cutHistory(mark);
          expect(logged).toEqual(session.history);
          session.appendUser([{ type: 'text', text: `edit ${pick}` }]);
          // Merged into the same user message when the cut left one (a `keep` change).
          if (pick % 2) session.appendUser([{ type: 'text', text: 'and more' }]);
          session.appendAssistant([{ type: 'text', text: 'reply' }]);
          users.splice(users.indexOf(user), Infinity, { ...user, historyAt: mark });
          expect(logged).toEqual(session.history);
        }
        session.closeOpenToolUses('stopped');
        expect(logged).toEqual(session.history);
      }),
    );
  });
});
