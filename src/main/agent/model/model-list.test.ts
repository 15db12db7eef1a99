import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MODEL } from '../../../shared/settings';
import { TEST_KEY, closeAll, startChat } from '../../../../test-support/main/chat-test-setup';

// Settings → "Model" (docs/contract.md §5): the Models API's list with display names, and the saved
// and default models always in it, so a model the API did not return can be chosen again.
afterEach(closeAll);

describe('listModels', () => {
  it('adds the saved and the default model, by display name, when the Models API did not return them', async () => {
    const { models: facts, settings } = await startChat({ name: 'models', turns: [] }, { settings: { model: 'claude-haiku-5-5-20260101' } });
    const { models, source } = await facts.choices(TEST_KEY, settings.get().model);
    expect(source).toBe('api');
    // Models the API did not list get the built-in table's window, output cap and thinking.
    expect(models.slice(0, 2)).toEqual([
      { id: 'claude-haiku-5-5-20260101', displayName: 'Claude Haiku 5.5', contextWindow: 200_000, maxOutputTokens: 64_000, thinking: expect.objectContaining({ adaptive: true }) },
      { id: DEFAULT_MODEL, displayName: 'Claude Sonnet 5.5', contextWindow: 200_000, maxOutputTokens: 64_000, thinking: expect.objectContaining({ adaptive: true }) },
    ]);
    expect(models).toContainEqual(expect.objectContaining({ id: 'claude-haiku-4-5-20251001', displayName: 'Claude Haiku 4.5', contextWindow: 200_000, maxOutputTokens: 64_000 }));
    expect(new Set(models.map((m) => m.id)).size).toBe(models.length);
  });

  it('does not repeat a saved model the API listed', async () => {
    const { models: facts, settings } = await startChat({ name: 'models', turns: [] }, { settings: { model: 'claude-opus-4-5-20251101' } });
    const { models } = await facts.choices(TEST_KEY, settings.get().model);
    expect(models.filter((m) => m.id === 'claude-opus-4-5-20251101')).toEqual([
      expect.objectContaining({ id: 'claude-opus-4-5-20251101', displayName: 'Claude Opus 4.5', contextWindow: 200_000, maxOutputTokens: 64_000 }),
    ]);
    expect(models[0]).toMatchObject({ id: DEFAULT_MODEL, displayName: 'Claude Sonnet 5.5' });
  });

  it('says what thinking each model takes: the Models API capabilities, else the table', async () => {
    const { models: facts, settings } = await startChat({ name: 'models', turns: [] });
    const { models } = await facts.choices(TEST_KEY, settings.get().model);
    // The scripted API describes Sonnet 4.5 as taking a fixed budget only.
    expect(models.find((m) => m.id === 'claude-sonnet-4-5-20250929')?.thinking).toEqual({ adaptive: false, enabled: true, efforts: [] });
    // The default model is not in its list: the table says adaptive with effort.
    expect(models.find((m) => m.id === DEFAULT_MODEL)?.thinking).toMatchObject({ adaptive: true, efforts: expect.arrayContaining(['low', 'high']) });
  });
});
