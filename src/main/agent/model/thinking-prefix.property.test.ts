import fc from 'fast-check';
import type { MessageCreateParamsBase, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { ThinkingPrefixes } from './thinking-prefix';

// The request keeps a thinking block exactly when everything before it is as it was when Claude
// produced it (what the API's prefix check asks of models with preserved thinking).

interface Turn {
  user: string;
  thinks: boolean;
  reply: string;
}

let signatures = 0;

/** Builds a chat turn by turn as the loop does, remembering each reply's thinking after its request. */
function chat(turns: readonly Turn[], prefixes: ThinkingPrefixes, system = 'sys'): MessageCreateParamsBase {
  const messages: MessageParam[] = [];
  for (const turn of turns) {
    messages.push({ role: 'user', content: turn.user });
    const request = { model: 'claude-sonnet-5-5', max_tokens: 100, system, messages: structuredClone(messages) };
    const reply = [
      ...(turn.thinks ? [{ type: 'thinking' as const, thinking: `why ${turn.reply}`, signature: `sig-${++signatures}` }] : []),
      { type: 'text' as const, text: turn.reply },
    ];
    prefixes.remember(prefixes.keepValid(request), reply);
    messages.push({ role: 'assistant', content: reply });
  }
  messages.push({ role: 'user', content: 'next' });
  return { model: 'claude-sonnet-5-5', max_tokens: 100, system, messages };
}

const turns = fc.array(fc.record({ user: fc.string({ minLength: 1, maxLength: 8 }), thinks: fc.boolean(), reply: fc.string({ minLength: 1, maxLength: 8 }) }), { minLength: 1, maxLength: 8 });
const hasThinking = (m: MessageParam) => Array.isArray(m.content) && m.content.some((b) => b.type === 'thinking');

describe('ThinkingPrefixes', () => {
  it('an append-only request goes unchanged, cache breakpoints included', () => {
    fc.assert(
      fc.property(turns, (ts) => {
        const prefixes = new ThinkingPrefixes();
        const request = chat(ts, prefixes);
        expect(prefixes.keepValid(request)).toBe(request);
        const cached = structuredClone(request);
        cached.messages[0] = { role: 'user', content: [{ type: 'text', text: ts[0]!.user, cache_control: { type: 'ephemeral' } }] };
        expect(prefixes.keepValid(cached)).toBe(cached);
      }),
    );
  });

  it('a rewritten message drops the thinking after it and keeps the thinking before it; a new system prompt drops all', () => {
    fc.assert(
      fc.property(turns, fc.nat(), (ts, pick) => {
        const prefixes = new ThinkingPrefixes();
        const request = chat(ts, prefixes);
        const k = (pick % ts.length) * 2; // one of the user messages
        const edited = structuredClone(request);
        edited.messages[k] = { role: 'user', content: `${ts[k / 2]!.user} (shortened)` };
        const sent = prefixes.keepValid(edited);
        sent.messages.forEach((m, i) => {
          if (m.role !== 'assistant') return;
          expect(hasThinking(m)).toBe(i < k && hasThinking(request.messages[i]!));
          // Only thinking is ever left out.
          expect(m.content).toEqual((request.messages[i]!.content as Array<{ type: string }>).filter((b) => i < k || b.type !== 'thinking'));
        });
        const resystem = prefixes.keepValid({ ...request, system: 'other' });
        expect(resystem.messages.some(hasThinking)).toBe(false);
      }),
    );
  });
});
