import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { apiHistoryProblem, closeOpenToolUses } from './api-history';

const use = (id: string) => ({ type: 'tool_use' as const, id, name: 't', input: {} });
const result = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'ok' });
const text = (t: string) => ({ type: 'text' as const, text: t });

describe('apiHistoryProblem', () => {
  it('takes what the loop writes, including a run killed between two tools (restore closes the rest)', () => {
    const killed: MessageParam[] = [
      { role: 'user', content: [text('go')] },
      { role: 'assistant', content: [text('two tools'), use('a'), use('b')] },
      { role: 'user', content: [result('a')] },
    ];
    expect(apiHistoryProblem([])).toBeNull();
    expect(apiHistoryProblem(killed)).toBeNull();
    expect(apiHistoryProblem(killed.slice(0, 2))).toBeNull();
    closeOpenToolUses(killed, 'interrupted');
    expect(apiHistoryProblem(killed)).toBeNull();
  });

  it.each<[string, MessageParam[], RegExp]>([
    ['Claude first', [{ role: 'assistant', content: 'hi' }], /starts with an assistant message/],
    ['two user messages', [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }], /messages 0 and 1 are both user messages/],
    ['an empty message', [{ role: 'user', content: [] }], /message 0 is empty/],
    ['a result for no call', [{ role: 'user', content: 'a' }, { role: 'assistant', content: [use('a')] }, { role: 'user', content: [result('zz')] }], /answers a tool call \(zz\)/],
    ['a call answered twice', [{ role: 'user', content: 'a' }, { role: 'assistant', content: [use('a')] }, { role: 'user', content: [result('a'), result('a')] }], /twice/],
    [
      'a call left open before more turns',
      [{ role: 'user', content: 'a' }, { role: 'assistant', content: [use('a')] }, { role: 'user', content: [text('no result')] }, { role: 'assistant', content: 'ok' }],
      /leaves the tool call a of message 1 unanswered/,
    ],
  ])('refuses %s', (_name, history, problem) => {
    expect(apiHistoryProblem(history)).toMatch(problem);
  });
});
