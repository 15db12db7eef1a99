import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRequest } from './request-checks';

/**
 * The scripted server's validation is what makes "0 invalid histories" mean something: each
 * rule of the real API must refuse the broken history and accept every well-formed one.
 */
type Msg = { role: 'user' | 'assistant'; content: string | Array<Record<string, unknown>> };
const request = (messages: Msg[], extra: Record<string, unknown> = {}) => ({ model: 'claude-sonnet-4-5', max_tokens: 256, messages, ...extra });

/** Well-formed histories: user/assistant turns, some assistant turns call tools that the next user turn answers (results first). */
const word = fc.stringMatching(/^[a-z][a-z ]{0,11}[a-z]$/);
const exchange = fc.record({ ask: word, say: fc.option(word, { nil: undefined }), calls: fc.integer({ min: 0, max: 3 }), follow: fc.option(word, { nil: undefined }) });
const history = fc.array(exchange, { minLength: 1, maxLength: 6 }).map((turns) => {
  const messages: Msg[] = [];
  let next = 0;
  let pending: string[] = [];
  for (const t of turns) {
    const results = pending.map((id) => ({ type: 'tool_result', tool_use_id: id, content: `result of ${id}` }));
    messages.push({ role: 'user', content: [...results, { type: 'text', text: t.ask }] });
    const uses = Array.from({ length: t.calls }, () => ({ type: 'tool_use', id: `toolu_${next++}`, name: 'read_file', input: { path: 'a.txt' } }));
    const text = t.say ?? (uses.length ? undefined : 'ok');
    messages.push({ role: 'assistant', content: [...(text ? [{ type: 'text', text }] : []), ...uses] });
    pending = uses.map((u) => u.id);
  }
  const results = pending.map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'done', is_error: true }));
  messages.push({ role: 'user', content: results.length ? results : [{ type: 'text', text: 'thanks' }] });
  return messages;
});

describe('scripted API request checks', () => {
  it('accepts every well-formed history', () => {
    fc.assert(fc.property(history, (messages) => {
        expect(checkRequest(request(messages))).toBeNull();
      }), { numRuns: 300 });
  });

  it('refuses a history with any one tool_result dropped, duplicated or moved after text', () => {
    fc.assert(
      fc.property(history, fc.nat(), fc.constantFrom('drop', 'duplicate', 'after_text'), (messages, pick, how) => {
        const withResults = messages.filter((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result'));
        fc.pre(withResults.length > 0);
        const target = withResults[pick % withResults.length]!;
        const blocks = target.content as Array<Record<string, unknown>>;
        const at = blocks.findIndex((b) => b.type === 'tool_result');
        if (how === 'drop') blocks.splice(at, 1);
        if (how === 'duplicate') blocks.splice(at, 0, { ...blocks[at] });
        if (how === 'after_text') blocks.unshift({ type: 'text', text: 'first' });
        if (blocks.length === 0) blocks.push({ type: 'text', text: 'x' });
        expect(checkRequest(request(messages))).not.toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('refuses the shapes the real API refuses', () => {
    const ok: Msg[] = [{ role: 'user', content: 'hi' }];
    expect(checkRequest(request(ok))).toBeNull();
    const cases: Array<[string, Msg[], RegExp, Record<string, unknown>?]> = [
      ['assistant first', [{ role: 'assistant', content: 'hi' }], /first message/],
      ['two user turns', [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }], /alternate/],
      ['two assistant turns', [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'assistant', content: 'c' }], /alternate/],
      ['empty user turn', [{ role: 'user', content: [] }], /non-empty content/],
      ['whitespace text', [{ role: 'user', content: '  ' }], /non-whitespace/],
      ['trailing whitespace in the final assistant turn', [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b ' }], /trailing whitespace/],
      ['tool_use in a user turn', [{ role: 'user', content: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }] }], /not allowed/],
      ['tool_use left open at the end', [{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }] }], /without `tool_result`/],
      ['tool_use input not an object', [{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: 'no' }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] }], /input/],
      ['bad tool_use id', [{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't 1', name: 'x', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't 1' }] }], /pattern/],
      [
        'reused tool_use id',
        [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] },
        ],
        /unique/,
      ],
      ['a result for no call', [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't9' }] }], /unexpected `tool_use_id`/],
      ['thinking without signature', [{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }] }], /signature/],
      ['five cache breakpoints', [{ role: 'user', content: Array.from({ length: 5 }, (_, i) => ({ type: 'text', text: `t${i}`, cache_control: { type: 'ephemeral' } })) }], /maximum of 4/],
      ['duplicate tool names', ok, /unique/, { tools: [{ name: 'a', input_schema: { type: 'object' } }, { name: 'a', input_schema: { type: 'object' } }] }],
      ['bad tool name', ok, /pattern/, { tools: [{ name: 'a.b', input_schema: { type: 'object' } }] }],
    ];
    for (const [label, messages, error, extra] of cases) expect(checkRequest(request(messages, extra)), label).toMatch(error);
  });
});

describe('forced tool_choice, as strict as the API', () => {
  const ask: Msg[] = [{ role: 'user', content: 'check' }];
  const tools = [{ name: 'report_goal_check', input_schema: { type: 'object', properties: {} } }];
  it('refuses a forced tool the request does not offer, a forced choice with no tools, and an unknown type', () => {
    expect(checkRequest(request(ask, { tools, tool_choice: { type: 'tool', name: 'other' } }))).toBe("tool_choice: Tool 'other' not found in provided tools");
    expect(checkRequest(request(ask, { tool_choice: { type: 'tool', name: 'report_goal_check' } }))).toMatch(/only be specified while providing tools/);
    expect(checkRequest(request(ask, { tools, tool_choice: { type: 'tool' } }))).toMatch(/name: Field required/);
    expect(checkRequest(request(ask, { tools, tool_choice: { type: 'force' } }))).toMatch(/tool_choice.type/);
  });
  it('accepts a forced tool that is offered', () => {
    expect(checkRequest(request(ask, { tools, tool_choice: { type: 'tool', name: 'report_goal_check' } }))).toBeNull();
    expect(checkRequest(request(ask, { tools, tool_choice: { type: 'auto' } }))).toBeNull();
  });
});
