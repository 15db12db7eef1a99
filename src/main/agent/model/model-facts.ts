import type Anthropic from '@anthropic-ai/sdk';
import { anthropicClient } from './anthropic-sdk';
import type { ModelInfo as ApiModel } from '@anthropic-ai/sdk/resources/models';
import type { CallOutput } from '../../../shared/contract';
import { withRequiredModels } from '../../../shared/model-names';
import { DEFAULT_MODEL } from '../../../shared/settings';
import type { ModelThinking } from '../../../shared/thinking';
import { builtInLimits, builtInThinking, FALLBACK_MODELS, type ModelLimits } from './model-catalog';
import { fromCapabilities } from './model-thinking';

type ModelList = CallOutput<'listModels'>;
type ListedModel = ModelList['models'][number];

/** The API's list is asked again after this long; a failed ask (offline, no key) sooner. */
const LIST_TTL_MS = 10 * 60_000;
const FALLBACK_TTL_MS = 30_000;

interface Cached<T> {
  at: number;
  ttl: number;
  value: Promise<T>;
}

export interface ModelFactsOptions {
  baseURL?: string;
  now?: () => number;
}

/**
 * What Waypoint knows about models, from the Models API where it can ask: the list Settings
 * offers (display names) and each model's context window, output cap and the extended thinking
 * it takes (`capabilities`). The API's answers win; the built-in table (model-catalog.ts) only
 * fills what the API did not describe. One list fetch
 * serves Settings and every run for a while, so a request never waits on it twice.
 */
export class ModelFacts {
  private listed = new Map<string, Cached<ModelList>>();
  private retrieved = new Map<string, Cached<ListedModel | null>>();
  private readonly now: () => number;

  constructor(private readonly options: ModelFactsOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /** The Models API's list (display names and limits), or the built-in list when it can't be asked. */
  list(apiKey: string | null): Promise<ModelList> {
    const key = apiKey ?? '';
    const held = this.listed.get(key);
    if (held && this.now() - held.at < held.ttl) return held.value;
    const entry: Cached<ModelList> = { at: this.now(), ttl: LIST_TTL_MS, value: this.fetchList(apiKey) };
    void entry.value.then((list) => {
      if (list.source === 'fallback') entry.ttl = FALLBACK_TTL_MS;
    });
    this.listed.set(key, entry);
    return entry.value;
  }

  /**
   * The models Settings offers: the API's list, plus the saved and the default model whenever it
   * lacks them; what the API did not describe shows the built-in table's window, cap and thinking.
   */
  async choices(apiKey: string | null, savedModel: string): Promise<ModelList> {
    const listed = await this.list(apiKey);
    const models = withRequiredModels(listed.models, [savedModel, DEFAULT_MODEL]);
    return { ...listed, models: models.map((m) => ({ ...builtInLimits(m.id), thinking: builtInThinking(m.id), ...m })) };
  }

  /** The model's context window and output cap: the API's where it gives them, else the table's. */
  async limitsFor(model: string, apiKey: string | null): Promise<ModelLimits> {
    const table = builtInLimits(model);
    const listed = (await this.list(apiKey)).models.find((m) => m.id === model);
    const described = listed?.contextWindow || listed?.maxOutputTokens ? listed : await this.retrieve(model, apiKey);
    return {
      contextWindow: described?.contextWindow ?? table.contextWindow,
      maxOutputTokens: described?.maxOutputTokens ?? table.maxOutputTokens,
    };
  }

  /** The extended thinking the model takes: the API's capabilities where it gives them, else the table's. */
  async thinkingFor(model: string, apiKey: string | null): Promise<ModelThinking> {
    const listed = (await this.list(apiKey)).models.find((m) => m.id === model);
    const described = listed?.thinking ? listed : await this.retrieve(model, apiKey);
    return described?.thinking ?? builtInThinking(model);
  }

  private async fetchList(apiKey: string | null): Promise<ModelList> {
    if (!apiKey) return { models: FALLBACK_MODELS, source: 'fallback' };
    try {
      const page = await (await this.client(apiKey)).models.list({ limit: 100 });
      const models = page.data.map(describe);
      return models.length ? { models, source: 'api' } : { models: FALLBACK_MODELS, source: 'fallback' };
    } catch {
      return { models: FALLBACK_MODELS, source: 'fallback' };
    }
  }

  /** GET /v1/models/{id} for an id the list lacks (an alias such as "claude-sonnet-4-5"); null when unknown. */
  private retrieve(model: string, apiKey: string | null): Promise<ListedModel | null> {
    if (!apiKey) return Promise.resolve(null);
    const key = `${apiKey}\n${model}`;
    const held = this.retrieved.get(key);
    if (held && this.now() - held.at < held.ttl) return held.value;
    const entry: Cached<ListedModel | null> = {
      at: this.now(),
      ttl: LIST_TTL_MS,
      value: this.client(apiKey)
        .then((client) => client.models.retrieve(model))
        .then((m) => {
          const described = describe(m);
          // Limits count only when the API gave both; its thinking capabilities stand on their own.
          const { contextWindow, maxOutputTokens, ...rest } = described;
          return contextWindow && maxOutputTokens ? described : rest;
        })
        .catch(() => {
          entry.ttl = FALLBACK_TTL_MS;
          return null;
        }),
    };
    this.retrieved.set(key, entry);
    return entry.value;
  }

  private client(apiKey: string): Promise<Anthropic> {
    // One quick try: Settings and the first request of a run should not hang on it.
    return anthropicClient({ apiKey, baseURL: this.options.baseURL, maxRetries: 0, timeout: 5_000 });
  }
}

function describe(m: ApiModel): ListedModel {
  const thinking = fromCapabilities(m.capabilities);
  return {
    id: m.id,
    displayName: m.display_name || m.id,
    ...(thinking ? { thinking } : {}),
    ...(m.max_input_tokens ? { contextWindow: m.max_input_tokens } : {}),
    ...(m.max_tokens ? { maxOutputTokens: m.max_tokens } : {}),
  };
}
