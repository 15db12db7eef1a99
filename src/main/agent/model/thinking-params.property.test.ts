import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings';
import { ThinkingEffort, type ModelThinking } from '../../../shared/thinking';
import { builtInThinking } from './model-catalog';
import { fromCapabilities } from './model-thinking';
import { thinkingFields, thinkingThisTurn } from './thinking-params';

// The `thinking` part of every request is one the API accepts: budget ≥ 1024 with max_tokens
// above it, never over the model's output cap, adaptive only with an effort the model takes.
const support: fc.Arbitrary<ModelThinking> = fc.record({
  adaptive: fc.boolean(),
  enabled: fc.boolean(),
  efforts: fc.subarray([...ThinkingEffort.options]),
});

describe('thinkingFields', () => {
  it('always asks for what the API accepts', () => {
    fc.assert(
      fc.property(
        support,
        fc.boolean(),
        fc.integer({ min: 256, max: 64_000 }),
        fc.integer({ min: 1024, max: 63_000 }),
        fc.constantFrom(...ThinkingEffort.options),
        fc.integer({ min: 1024, max: 128_000 }),
        (model, on, maxTokens, budget, effort, cap) => {
          const settings = { ...defaultSettings(), maxTokens, thinkingBudgetTokens: budget, thinkingEffort: effort, extendedThinking: on };
          const fields = thinkingFields(settings, model, on, cap);
          expect(fields.max_tokens).toBeLessThanOrEqual(cap);
          expect(fields.max_tokens).toBeGreaterThanOrEqual(1);
          if (!on) expect(fields.thinking).toBeUndefined();
          if (fields.thinking?.type === 'enabled') {
            expect(model.enabled && !model.adaptive).toBe(true);
            expect(fields.thinking.budget_tokens).toBeGreaterThanOrEqual(1024);
            expect(fields.max_tokens).toBeGreaterThan(fields.thinking.budget_tokens);
          }
          if (fields.thinking?.type === 'adaptive') {
            expect(model.adaptive).toBe(true);
            expect(fields.thinking.display).toBe('summarized');
            if (fields.output_config?.effort) expect(model.efforts).toContain(fields.output_config.effort);
          }
          if (on && (model.adaptive || (model.enabled && cap > 2048))) expect(fields.thinking).toBeDefined();
          if (!model.adaptive && !model.enabled) expect(fields.thinking).toBeUndefined();
        },
      ),
    );
  });
});

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const result = (id: string): MessageParam => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] });
const assistant = (thinks: boolean, id: string): MessageParam => ({
  role: 'assistant',
  content: [...(thinks ? [{ type: 'thinking' as const, thinking: 't', signature: 's' }] : []), { type: 'tool_use' as const, id, name: 'x', input: {} }],
});

describe('thinkingThisTurn', () => {
  it('a new user turn follows the setting; a tool loop keeps what its turn began with', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.array(fc.boolean(), { maxLength: 5 }), (wanted, began, later) => {
        expect(thinkingThisTurn([user('hi')], wanted)).toBe(wanted);
        const loop: MessageParam[] = [user('old'), { role: 'assistant', content: 'reply' }, user('go'), assistant(began, 't0'), result('t0')];
        later.forEach((thinks, i) => loop.push(assistant(thinks, `t${i + 1}`), result(`t${i + 1}`)));
        expect(thinkingThisTurn(loop, wanted)).toBe(began);
      }),
    );
  });
});

describe('what a model takes', () => {
  it('the Models API capabilities win; the table covers ids it does not describe', () => {
    expect(builtInThinking('claude-sonnet-5-5')).toMatchObject({ adaptive: true, enabled: false });
    expect(builtInThinking('claude-opus-4-6')).toMatchObject({ adaptive: true, enabled: true });
    expect(builtInThinking('claude-sonnet-4-5-20250929')).toEqual({ adaptive: false, enabled: true, efforts: [] });
    expect(builtInThinking('claude-sonnet-4-20250514')).toEqual({ adaptive: false, enabled: true, efforts: [] });
    expect(builtInThinking('claude-3-7-sonnet-20250219')).toEqual({ adaptive: false, enabled: true, efforts: [] });
    expect(builtInThinking('claude-3-5-haiku-latest')).toEqual({ adaptive: false, enabled: false, efforts: [] });
    const yes = { supported: true };
    const no = { supported: false };
    expect(
      fromCapabilities({
        thinking: { supported: true, types: { adaptive: yes, enabled: no, disabled: yes, between_tools: no } },
        effort: { supported: true, low: yes, medium: no, high: yes, max: yes, xhigh: null },
      } as never),
    ).toEqual({ adaptive: true, enabled: false, efforts: ['low', 'high', 'max'] });
    expect(fromCapabilities(null)).toBeNull();
  });
});
