import type { CallOutput } from '../../../shared/contract';
import { DEFAULT_MODEL } from '../../../shared/settings';
import type { ModelThinking, ThinkingEffort } from '../../../shared/thinking';

type ModelList = CallOutput<'listModels'>;

/** Shown when the Models API can't be asked (no key, offline): current models, default first. */
export const FALLBACK_MODELS: ModelList['models'] = [
  { id: DEFAULT_MODEL, displayName: 'Claude Sonnet 5.5' },
  { id: 'claude-opus-5-5', displayName: 'Claude Opus 5.5' },
  { id: 'claude-haiku-5-5', displayName: 'Claude Haiku 5.5' },
  { id: 'claude-sonnet-4-6', displayName: 'Claude Sonnet 4.6' },
  { id: 'claude-opus-4-6', displayName: 'Claude Opus 4.6' },
];

/** A model's context window (the Models API's `max_input_tokens`) and output cap (its `max_tokens`). */
export interface ModelLimits {
  contextWindow: number;
  maxOutputTokens: number;
}

/** What Waypoint's table knows of a model: its limits and the extended thinking it takes. */
export interface ModelTraits extends ModelLimits {
  thinking: ModelThinking;
}

const EFFORTS: ThinkingEffort[] = ['low', 'medium', 'high', 'max'];
/** The 5.x models: adaptive thinking only (steered by effort). */
const ADAPTIVE: ModelThinking = { adaptive: true, enabled: false, efforts: EFFORTS };
/** The 4.6 models: adaptive with effort, or a fixed budget. */
const ADAPTIVE_OR_BUDGET: ModelThinking = { adaptive: true, enabled: true, efforts: EFFORTS };
/** Claude 3.7 to 4.5: a fixed budget. */
const BUDGET: ModelThinking = { adaptive: false, enabled: true, efforts: [] };
const NONE: ModelThinking = { adaptive: false, enabled: false, efforts: [] };

/**
 * Models the Models API did not describe (no key, offline, an older proxy): by id prefix, the
 * longest prefix wins, so "claude-opus-4-20250514" is Opus 4 and "claude-opus-4-5-20251101" is
 * Opus 4.5. The API's own numbers and capabilities always come first.
 */
export const MODEL_TABLE: Readonly<Record<string, ModelTraits>> = {
  'claude-sonnet-5-5': { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: ADAPTIVE },
  'claude-opus-5-5': { contextWindow: 200_000, maxOutputTokens: 128_000, thinking: ADAPTIVE },
  'claude-haiku-5-5': { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: ADAPTIVE },
  'claude-opus-4-6': { contextWindow: 200_000, maxOutputTokens: 128_000, thinking: ADAPTIVE_OR_BUDGET },
  'claude-sonnet-4-6': { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: ADAPTIVE_OR_BUDGET },
  'claude-opus-4-5': { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: BUDGET },
  'claude-sonnet-4-5': { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: BUDGET },
  'claude-haiku-4-5': { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: BUDGET },
  'claude-opus-4-1': { contextWindow: 200_000, maxOutputTokens: 32_000, thinking: BUDGET },
  'claude-opus-4': { contextWindow: 200_000, maxOutputTokens: 32_000, thinking: BUDGET },
  'claude-sonnet-4': { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: BUDGET },
  'claude-3-7-sonnet': { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: BUDGET },
  'claude-3-5-sonnet': { contextWindow: 200_000, maxOutputTokens: 8_192, thinking: NONE },
  'claude-3-5-haiku': { contextWindow: 200_000, maxOutputTokens: 8_192, thinking: NONE },
  'claude-3-opus': { contextWindow: 200_000, maxOutputTokens: 4_096, thinking: NONE },
  'claude-3-haiku': { contextWindow: 200_000, maxOutputTokens: 4_096, thinking: NONE },
};

/** A model nobody described: every Claude model has at least this window, and none a smaller cap. */
export const UNKNOWN_MODEL_LIMITS: ModelLimits = { contextWindow: 200_000, maxOutputTokens: 4_096 };

function tableEntry(id: string): ModelTraits | undefined {
  const prefix = Object.keys(MODEL_TABLE)
    .filter((p) => id === p || id.startsWith(`${p}-`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? MODEL_TABLE[prefix] : undefined;
}

/** The built-in limits for a model id: the table's longest matching prefix, else the safe minimum. */
export function builtInLimits(id: string): ModelLimits {
  const entry = tableEntry(id);
  return entry ? { contextWindow: entry.contextWindow, maxOutputTokens: entry.maxOutputTokens } : UNKNOWN_MODEL_LIMITS;
}

/**
 * The thinking a model takes by the table; a model outside it by its family and version
 * (adaptive only from 5, adaptive or a budget at 4.6, a budget before), and any other
 * Claude model the long-standing fixed budget, the safer guess.
 */
export function builtInThinking(model: string): ModelThinking {
  const entry = tableEntry(model);
  if (entry) return entry.thinking;
  const id = model.toLowerCase();
  const version = /claude-(?:opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d+))?/.exec(id);
  if (!version) return id.startsWith('claude-3-') && !id.startsWith('claude-3-7') ? NONE : id.startsWith('claude-') ? BUDGET : NONE;
  const major = Number(version[1]);
  const minor = version[2] && version[2].length <= 2 ? Number(version[2]) : 0;
  if (major >= 5) return ADAPTIVE;
  if (major === 4 && minor >= 6) return ADAPTIVE_OR_BUDGET;
  if (major === 4) return BUDGET;
  return NONE;
}
