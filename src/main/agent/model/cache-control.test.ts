import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import { stripCacheControl } from './cache-control';
import { closeAll, startChat, testTool } from '../../../../test-support/main/chat-test-setup';
import { ok } from '../../tools/tool';

afterEach(closeAll);

type Body = { system: unknown; tools: Array<Record<string, unknown>>; messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };

describe('prompt caching over a long loop', () => {
  it('keeps system + tools byte-identical and each request extends the previous one, over 20 turns', async () => {
    const turns: ScriptedTurn[] = [
      ...Array.from({ length: 19 }, (_, i): ScriptedTurn => ({ kind: 'tool_use', text: `Step ${i + 1}.`, calls: [{ name: 'lookup', input: { q: `item ${i + 1}` } }] })),
      { kind: 'text', text: 'All twenty done.' },
    ];
    const lookup = testTool('lookup', async (input) => ok(`found ${(input as { q: string }).q}`));
    const { service, chats, recorder, session, server } = await startChat({ name: 'twenty', turns }, { tools: [lookup] });
    service.sendMessage(session.id, 'Look up twenty things');
    await recorder.idle(session.id, 0, 20_000);
    const bodies = server.requests.map((r) => r.body as Body);
    expect(bodies).toHaveLength(20);

    const prefix = (b: Body) => JSON.stringify({ system: b.system, tools: b.tools });
    for (const body of bodies) expect(prefix(body)).toBe(prefix(bodies[0]!));
    for (let i = 1; i < bodies.length; i++) {
      const previous = stripCacheControl(bodies[i - 1]!.messages);
      const current = stripCacheControl(bodies[i]!.messages);
      expect(current.length).toBeGreaterThan(previous.length);
      expect(JSON.stringify(current.slice(0, previous.length))).toBe(JSON.stringify(previous));
    }

    // The breakpoints: last tool, the system prompt, and the newest block of the conversation.
    for (const body of bodies) {
      expect(body.tools.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
      expect(body.tools.slice(0, -1).every((t) => !('cache_control' in t))).toBe(true);
      expect(body.system).toEqual([expect.objectContaining({ type: 'text', cache_control: { type: 'ephemeral' } })]);
      const marked = JSON.stringify(body.messages).match(/cache_control/g) ?? [];
      expect(marked).toHaveLength(1);
      expect(body.messages.at(-1)!.content.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
    }
    // The history itself never carries a breakpoint (they are set on the request copy).
    expect(JSON.stringify(chats.sessionState(session.id)!.history)).not.toContain('cache_control');
  });
});
