import type { MessageCreateParamsBase, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import { prepareRequest } from './context-limits';
import { ChatSession } from './session-state';

const big = 'x'.repeat(5000);
function conversation(turns: number): MessageParam[] {
  const messages: MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: 'start' }] }];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'read_file', input: { path: `f${i}` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `${i}:${big}` }] });
  }
  return messages;
}
const plan = { id: 'p', goal: 'Read every file', status: 'active', steps: [{ id: 1, title: 'Read them', status: 'in_progress' }] } as unknown as Plan;

describe('context limits', () => {
  it('leaves a small chat alone (apart from the cache breakpoints)', () => {
    const session = new ChatSession({ id: 's', title: 't', createdAt: 'x', updatedAt: 'x' });
    const events: WaypointEvent[] = [];
    const request: MessageCreateParamsBase = { model: 'm', max_tokens: 1000, system: 'sys', messages: conversation(3) };
    const sent = prepareRequest(request, { session, plan, publish: (e) => events.push(e) });
    expect(JSON.stringify(sent.messages)).toContain(big);
    expect(events).toEqual([]);
  });

  it('near the window: old tool results are shortened in the request only, the plan stays, the user is told once', () => {
    const session = new ChatSession({ id: 's', title: 't', createdAt: 'x', updatedAt: 'x' });
    const events: WaypointEvent[] = [];
    const history = conversation(10);
    const request: MessageCreateParamsBase = { model: 'm', max_tokens: 1000, system: 'sys', messages: structuredClone(history) };
    const sent = prepareRequest(request, { session, plan, publish: (e) => events.push(e), contextWindow: 10_000 });
    const text = JSON.stringify(sent.messages);
    expect(text).toContain('Waypoint shortened this old tool result from 5002 characters');
    // The newest six messages go whole; the request is much smaller than before.
    expect(JSON.stringify(sent.messages.slice(-6))).toContain(`9:${big}`);
    expect(JSON.stringify(sent.messages.slice(0, 3))).not.toContain(big);
    expect(text.length).toBeLessThan(JSON.stringify(history).length / 2);
    // The plan's current state rides in the newest message.
    expect(JSON.stringify(sent.messages.at(-1))).toContain('[in_progress] 1. Read them');
    expect(events).toEqual([expect.objectContaining({ type: 'transcript_item', item: expect.objectContaining({ kind: 'notice', code: 'context_trimmed' }) })]);
    // The request was a copy: the history keeps every result whole.
    expect(JSON.stringify(request.messages)).toContain(`0:${big}`);

    // The next turn keeps the same cut (a byte-stable prefix) and says nothing new.
    const next = [...structuredClone(history), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, { role: 'user', content: [{ type: 'text', text: 'more' }] }] as MessageParam[];
    const again = prepareRequest({ ...request, messages: next }, { session, plan, publish: (e) => events.push(e), contextWindow: 10_000 });
    expect(JSON.stringify(again.messages.slice(0, 15))).toBe(JSON.stringify(sent.messages.slice(0, 15)));
    expect(events).toHaveLength(1);
  });
});
