import { describe, expect, it } from 'vitest';
import { displayNameFromId, modelDisplayName, withRequiredModels } from './model-names';

describe('model names', () => {
  it('reads ids the way the Models API names them', () => {
    expect(displayNameFromId('claude-haiku-4-5-20251001')).toBe('Claude Haiku 4.5');
    expect(displayNameFromId('claude-sonnet-5-5')).toBe('Claude Sonnet 5.5');
    expect(displayNameFromId('claude-opus-4-1-20250805')).toBe('Claude Opus 4.1');
    expect(displayNameFromId('claude-sonnet-4')).toBe('Claude Sonnet 4');
    expect(displayNameFromId('claude-3-5-haiku-latest')).toBe('Claude 3.5 Haiku');
    expect(displayNameFromId('claude-3-7-sonnet-20250219')).toBe('Claude 3.7 Sonnet');
  });

  it('leaves ids it does not understand as they are', () => {
    for (const id of ['gpt-4o', 'claude', 'my-proxy/claude-sonnet', 'Claude-Sonnet-4', '']) expect(displayNameFromId(id)).toBe(id);
  });

  it('prefers the display name the Models API gave', () => {
    const listed = [{ id: 'claude-sonnet-4-5-20250929', displayName: 'Claude Sonnet 4.5 (new)' }];
    expect(modelDisplayName('claude-sonnet-4-5-20250929', listed)).toBe('Claude Sonnet 4.5 (new)');
    expect(modelDisplayName('claude-opus-4-5-20251101', listed)).toBe('Claude Opus 4.5');
  });

  it('always offers the current and the default model, once each, in front of the listed ones', () => {
    const listed = [
      { id: 'claude-opus-4-5-20251101', displayName: 'Claude Opus 4.5' },
      { id: 'claude-haiku-4-5-20251001', displayName: 'Claude Haiku 4.5' },
    ];
    expect(withRequiredModels(listed, ['claude-haiku-4-5-20251001', 'claude-sonnet-5-5']).map((m) => m.id)).toEqual([
      'claude-sonnet-5-5',
      'claude-opus-4-5-20251101',
      'claude-haiku-4-5-20251001',
    ]);
    expect(withRequiredModels(listed, ['claude-sonnet-5-5', 'claude-sonnet-5-5'])).toEqual([
      { id: 'claude-sonnet-5-5', displayName: 'Claude Sonnet 5.5' },
      ...listed,
    ]);
    expect(withRequiredModels(listed, [])).toEqual(listed);
  });
});
