import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { appendAssistant, appendUserText, closeOpenToolUses, unansweredToolUses } from './api-history';
import { titleFrom } from './chat-session';

describe('history fix-ups', () => {
  it('merges user text into a trailing user message instead of sending two in a row', () => {
    const history: MessageParam[] = [];
    appendUserText(history, 'first');
    appendUserText(history, 'second');
    expect(history).toEqual([{ role: 'user', content: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }] }]);
  });

  it('never adds an empty assistant message or an empty text block', () => {
    const history: MessageParam[] = [{ role: 'user', content: 'hi' }];
    appendAssistant(history, [{ type: 'text', text: '' }]);
    expect(history).toHaveLength(1);
    appendAssistant(history, [{ type: 'text', text: '' }, { type: 'tool_use', id: 't1', name: 'x', input: {} }]);
    expect(history[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }] });
  });

  it('answers only the tool_uses still open, after results already given', () => {
    const history: MessageParam[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'x', input: {} }, { type: 'tool_use', id: 'b', name: 'x', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'done' }] },
    ];
    expect(unansweredToolUses(history)).toEqual(['b']);
    closeOpenToolUses(history, 'stopped');
    expect(history).toHaveLength(3);
    expect(history[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: 'done' },
      { type: 'tool_result', tool_use_id: 'b', content: 'stopped', is_error: true },
    ]);
    expect(unansweredToolUses(history)).toEqual([]);
  });
});

describe('titleFrom', () => {
  it('uses the first message on one line, cut near 60 characters at a word', () => {
    expect(titleFrom('  Fix the\n  build  ')).toBe('Fix the build');
    const title = titleFrom('Please refactor the authentication module so that tokens refresh automatically before expiry');
    expect(title.length).toBeLessThanOrEqual(61);
    expect(title).toBe('Please refactor the authentication module so that tokens…');
  });
});
