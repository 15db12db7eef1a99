import Anthropic from '@anthropic-ai/sdk';
import type { CallOutput } from '../../shared/contract';
import { DEFAULT_MODEL } from '../../shared/settings';

type ModelList = CallOutput<'listModels'>;

/** Shown when the Models API can't be asked (no key, offline): current models, default first. */
export const FALLBACK_MODELS: ModelList['models'] = [
  { id: DEFAULT_MODEL, displayName: 'Claude Sonnet 5.5' },
  { id: 'claude-opus-5-5', displayName: 'Claude Opus 5.5' },
  { id: 'claude-haiku-5-5', displayName: 'Claude Haiku 5.5' },
  { id: 'claude-sonnet-4-6', displayName: 'Claude Sonnet 4.6' },
  { id: 'claude-opus-4-6', displayName: 'Claude Opus 4.6' },
];

/** Asks the Models API quickly (one try, short timeout); any failure gives the fallback list. */
export async function fetchModels(apiKey: string | null, baseURL: string | undefined): Promise<ModelList> {
  if (!apiKey) return { models: FALLBACK_MODELS, source: 'fallback' };
  try {
    const client = new Anthropic({ apiKey, baseURL, maxRetries: 0, timeout: 5_000 });
    const page = await client.models.list({ limit: 100 });
    const models = page.data.map((m) => ({ id: m.id, displayName: m.display_name || m.id }));
    return models.length ? { models, source: 'api' } : { models: FALLBACK_MODELS, source: 'fallback' };
  } catch {
    return { models: FALLBACK_MODELS, source: 'fallback' };
  }
}
