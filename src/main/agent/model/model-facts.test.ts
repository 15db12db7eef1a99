import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedModel } from '../../../../test-support/scripted-api/models-page';
import { startScriptedServer, type ScriptedServer } from '../../../../test-support/scripted-api/server';
import { builtInLimits, builtInThinking, UNKNOWN_MODEL_LIMITS } from './model-catalog';
import { ModelFacts } from './model-facts';

// Issue 16, item 6 (docs/contract.md §5, "Model and its window"): a model's window is its
// max_input_tokens and its cap its max_tokens from the Models API; the built-in table only for
// models the API does not describe. Asked through the real SDK against the scripted server.

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Numbers no table holds, so a test sees whose they are. */
const MODELS: ScriptedModel[] = [
  { id: 'claude-opus-4-6', display_name: 'Claude Opus 4.6', max_input_tokens: 1_000_000, max_tokens: 96_000 },
  { id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5', max_input_tokens: 150_000, max_tokens: 20_000 },
];

async function facts(models: ScriptedModel[] = MODELS, now?: () => number): Promise<ModelFacts> {
  server = await startScriptedServer({ scenario: { name: 'models', turns: [] }, models });
  return new ModelFacts({ baseURL: server.url, ...(now ? { now } : {}) });
}

describe('ModelFacts', () => {
  it("takes a listed model's window and cap from the Models API over the built-in table", async () => {
    const known = await facts();
    expect(builtInLimits('claude-opus-4-6')).toEqual({ contextWindow: 200_000, maxOutputTokens: 128_000 });
    await expect(known.limitsFor('claude-opus-4-6', 'sk-test')).resolves.toEqual({ contextWindow: 1_000_000, maxOutputTokens: 96_000 });
  });

  it("takes a model's thinking from the Models API's capabilities (an alias by GET /v1/models/{id}), else from the same table", async () => {
    const known = await facts([
      { id: 'claude-opus-4-6', display_name: 'Claude Opus 4.6', max_input_tokens: 200_000, max_tokens: 128_000, thinking: { adaptive: false, enabled: true } },
      { id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5', max_input_tokens: 200_000, max_tokens: 64_000, thinking: { adaptive: true, enabled: false }, efforts: ['high'] },
    ]);
    // What the API says wins over the table (which has Opus 4.6 adaptive and Sonnet 4.5 budget-only).
    await expect(known.thinkingFor('claude-opus-4-6', 'sk-test')).resolves.toEqual({ adaptive: false, enabled: true, efforts: [] });
    await expect(known.thinkingFor('claude-sonnet-4-5', 'sk-test')).resolves.toEqual({ adaptive: true, enabled: false, efforts: ['high'] });
    await expect(known.thinkingFor('claude-haiku-5-5', 'sk-test')).resolves.toEqual(builtInThinking('claude-haiku-5-5'));
    expect(builtInThinking('claude-haiku-5-5')).toMatchObject({ adaptive: true, enabled: false });
  });

  it('asks GET /v1/models/{id} for an alias the list lacks', async () => {
    const known = await facts();
    await expect(known.limitsFor('claude-sonnet-4-5', 'sk-test')).resolves.toEqual({ contextWindow: 150_000, maxOutputTokens: 20_000 });
  });

  it('falls back to the table, by longest id prefix, for a model the API does not know, without a key, or offline', async () => {
    const known = await facts();
    await expect(known.limitsFor('claude-opus-4-5-20251101', 'sk-test')).resolves.toEqual({ contextWindow: 200_000, maxOutputTokens: 64_000 });
    await expect(known.limitsFor('claude-opus-4-20250514', null)).resolves.toEqual({ contextWindow: 200_000, maxOutputTokens: 32_000 });
    await expect(known.limitsFor('some-other-model', 'sk-test')).resolves.toEqual(UNKNOWN_MODEL_LIMITS);
    const url = server!.url;
    await server!.close();
    server = undefined;
    const offline = new ModelFacts({ baseURL: url });
    await expect(offline.limitsFor('claude-opus-4-6', 'sk-test')).resolves.toEqual({ contextWindow: 200_000, maxOutputTokens: 128_000 });
    await expect(offline.list('sk-test')).resolves.toMatchObject({ source: 'fallback' });
  });

  it('serves one list for a while, then asks the Models API again', async () => {
    let clock = 0;
    const models = MODELS.map((m) => ({ ...m }));
    const known = await facts(models, () => clock);
    await expect(known.limitsFor('claude-opus-4-6', 'sk-test')).resolves.toMatchObject({ contextWindow: 1_000_000 });
    models[0]!.max_input_tokens = 500_000;
    clock = 9 * 60_000;
    await expect(known.limitsFor('claude-opus-4-6', 'sk-test')).resolves.toMatchObject({ contextWindow: 1_000_000 });
    clock = 11 * 60_000;
    await expect(known.limitsFor('claude-opus-4-6', 'sk-test')).resolves.toMatchObject({ contextWindow: 500_000 });
  });
});
