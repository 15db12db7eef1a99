import { afterEach, describe, expect, it } from 'vitest';
import type { ThinkingItem } from '../../../shared/transcript';
import { ok } from '../../tools/tool';
import { closeAll, startChat, testTool } from '../../../../test-support/main/chat-test-setup';

// Extended thinking through the real SDK against the scripted API (docs/contract.md §5 "Thinking"):
// requests carry `thinking` from the next user turn, thinking streams into its own items, and in
// a tool loop the thinking blocks go back exactly as received — the scripted API refuses a
// request that drops or changes them, as the real one does.
afterEach(closeAll);

type Body = { thinking?: { type: string; budget_tokens?: number; display?: string }; output_config?: { effort?: string }; max_tokens: number; messages: Array<{ role: string; content: unknown }> };
const bodyOf = (server: { requests: Array<{ body: unknown }> }, i: number) => server.requests[i]!.body as Body;

describe('extended thinking', () => {
  it('adaptive: the request asks for summarized thinking with the chosen effort, and the thinking streams into a Thinking item before the reply', async () => {
    const { service, chats, server, recorder, session } = await startChat(
      { name: 'think', turns: [{ kind: 'text', text: 'The answer is 4.', thinking: ['Two plus two. Carry nothing. Four.'] }] },
      { settings: { model: 'claude-opus-4-6', extendedThinking: true, thinkingEffort: 'medium', maxTokens: 4000 } },
    );
    service.sendMessage(session.id, 'What is 2+2?');
    await recorder.idle(session.id);
    const body = bodyOf(server, 0);
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body.output_config).toEqual({ effort: 'medium' });
    expect(body.max_tokens).toBeGreaterThan(4000);
    const items = chats.getSession(session.id).transcript;
    const thinking = items.filter((i): i is ThinkingItem => i.kind === 'thinking');
    expect(thinking).toEqual([expect.objectContaining({ text: 'Two plus two. Carry nothing. Four.', status: 'done' })]);
    expect(items.findIndex((i) => i.kind === 'thinking')).toBeLessThan(items.findIndex((i) => i.kind === 'assistant'));
    // It streamed: the text arrived in several deltas for the thinking item.
    expect(recorder.ofType('message_delta').filter((d) => d.itemId === thinking[0]!.id).length).toBeGreaterThan(1);
  });

  it('a fixed budget for a model that takes only that: budget ≥ 1024, max_tokens above it', async () => {
    const { service, server, recorder, session } = await startChat(
      { name: 'budget', turns: [{ kind: 'text', text: 'ok', thinking: ['hmm'] }] },
      { settings: { model: 'claude-sonnet-4-5-20250929', extendedThinking: true, thinkingBudgetTokens: 5000, maxTokens: 2000 } },
    );
    service.sendMessage(session.id, 'hi');
    await recorder.idle(session.id);
    const body = bodyOf(server, 0);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 5000 });
    expect(body.max_tokens).toBe(7000);
  });

  it('in a tool loop the thinking and redacted_thinking blocks go back exactly as received, signatures included', async () => {
    const { service, chats, server, recorder, session } = await startChat(
      {
        name: 'loop',
        turns: [
          { kind: 'tool_use', thinking: ['I should look first.'], redacted: 1, calls: [{ name: 'look', input: { q: 'a' } }] },
          { kind: 'tool_use', calls: [{ name: 'look', input: { q: 'b' } }] },
          { kind: 'text', text: 'Done.' },
        ],
      },
      { settings: { model: 'claude-opus-4-6', extendedThinking: true }, tools: [testTool('look', async () => ok('seen'))] },
    );
    service.sendMessage(session.id, 'go');
    await recorder.idle(session.id);
    // Three turns, none refused.
    expect(server.requests).toHaveLength(3);
    const second = bodyOf(server, 1).messages[1]!.content as Array<Record<string, unknown>>;
    expect(second[0]).toMatchObject({ type: 'thinking', thinking: 'I should look first.', signature: expect.any(String) });
    expect(second[1]).toMatchObject({ type: 'redacted_thinking', data: expect.any(String) });
    // The third request still carries the turn's first assistant message with its thinking first.
    const third = bodyOf(server, 2);
    expect(third.thinking?.type).toBe('adaptive');
    expect((third.messages[1]!.content as Array<{ type: string }>)[0]!.type).toBe('thinking');
    const transcript = chats.getSession(session.id).transcript;
    expect(transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'Done.' });
    expect(transcript.filter((i) => i.kind === 'thinking')).toEqual([
      expect.objectContaining({ text: 'I should look first.', status: 'done' }),
      expect.objectContaining({ redacted: true }),
    ]);
  });

  it('turning thinking on in the middle of a tool loop waits for the next user turn', async () => {
    const { service, chats, server, recorder, session, settings } = await startChat(
      {
        name: 'toggle',
        turns: [
          { kind: 'tool_use', calls: [{ name: 'look', input: { q: 'a' } }] },
          { kind: 'text', text: 'first done', thinking: ['not sent'] },
          { kind: 'text', text: 'second', thinking: ['now thinking'] },
        ],
      },
      {
        settings: { model: 'claude-opus-4-6', extendedThinking: false },
        tools: [testTool('look', async () => (settings.set({ extendedThinking: true }), ok('seen')))],
      },
    );
    service.sendMessage(session.id, 'go');
    await recorder.idle(session.id);
    // Request 1 (the tool result) continues a loop that began without thinking: none asked for.
    expect(bodyOf(server, 0).thinking).toBeUndefined();
    expect(bodyOf(server, 1).thinking).toBeUndefined();
    const from = recorder.events.length;
    service.sendMessage(session.id, 'again');
    await recorder.idle(session.id, from);
    expect(server.requests.at(-1)!.body).toMatchObject({ thinking: { type: 'adaptive' } });
    expect(chats.getSession(session.id).transcript.filter((i) => i.kind === 'thinking').map((i) => i.text)).toEqual(['now thinking']);
  });

  it('preserved thinking (Sonnet 5.5): when a setting changes the system prompt and tools mid-chat, thinking bound to the old prefix stays out instead of a 400', async () => {
    const { service, chats, server, recorder, session, settings } = await startChat(
      {
        name: 'rebound',
        turns: [
          { kind: 'text', text: 'first', thinking: ['One.'], redacted: 1 },
          { kind: 'tool_use', thinking: ['Look, then answer.'], calls: [{ name: 'look', input: { q: 'a' } }] },
          { kind: 'text', text: 'second', thinking: ['Seen.'] },
          { kind: 'text', text: 'third', thinking: ['Three.'] },
          { kind: 'text', text: 'fourth', thinking: ['Four.'] },
        ],
      },
      {
        settings: { model: 'claude-sonnet-5-5', extendedThinking: true, planningStyle: 'structured' },
        // The user switches the planning style while the tool runs: the next request's system prompt differs.
        tools: [testTool('look', async () => (settings.set({ planningStyle: 'checklist' }), ok('seen')))],
      },
    );
    service.sendMessage(session.id, 'one');
    await recorder.idle(session.id);
    let from = recorder.events.length;
    service.sendMessage(session.id, 'two');
    await recorder.idle(session.id, from);
    from = recorder.events.length;
    service.sendMessage(session.id, 'three');
    await recorder.idle(session.id, from);
    from = recorder.events.length;
    service.sendMessage(session.id, 'four');
    await recorder.idle(session.id, from);
    // Nothing refused: every reply arrived.
    expect(server.invalid).toEqual([]);
    expect(chats.getSession(session.id).transcript.filter((i) => i.kind === 'assistant').map((i) => i.text)).toEqual(['first', 'second', 'third', 'fourth']);
    const types = (i: number, m: number) => (bodyOf(server, i).messages[m]!.content as Array<{ type: string }>).map((b) => b.type);
    // Request 2 (the tool result) follows the new system prompt: the first turn's and the loop's thinking stay out, and so does `thinking`.
    expect(types(2, 1)).toEqual(['text']);
    expect(types(2, 3)).toEqual(['tool_use']);
    expect(bodyOf(server, 2).thinking).toBeUndefined();
    // Later requests keep them out, and keep the thinking produced after the change.
    expect(types(4, 1)).toEqual(['text']);
    expect(types(4, 5)).toEqual(['text']);
    expect(types(4, 7)).toEqual(['thinking', 'text']);
    expect(bodyOf(server, 4).thinking?.type).toBe('adaptive');
    // Before the change, the first turn's thinking went back as received.
    expect(types(1, 1)).toEqual(['thinking', 'redacted_thinking', 'text']);
  });

  it('the cost meter counts thinking tokens (billed as output)', async () => {
    const long = 'Considering. '.repeat(200);
    const plain = await startChat({ name: 'plain', turns: [{ kind: 'text', text: 'ok', thinking: [long], chunkChars: 400 }] }, { settings: { model: 'claude-opus-4-6' } });
    plain.service.sendMessage(plain.session.id, 'hi');
    await plain.recorder.idle(plain.session.id);
    const thinking = await startChat({ name: 'thinking', turns: [{ kind: 'text', text: 'ok', thinking: [long], chunkChars: 400 }] }, { settings: { model: 'claude-opus-4-6', extendedThinking: true } });
    thinking.service.sendMessage(thinking.session.id, 'hi');
    await thinking.recorder.idle(thinking.session.id);
    const out = (s: typeof plain) => s.chats.getSession(s.session.id).session.usage!.outputTokens;
    expect(out(thinking) - out(plain)).toBeGreaterThanOrEqual(Math.floor(long.length / 4));
  });
});
