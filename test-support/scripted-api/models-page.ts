/**
 * The Models API of the scripted server: GET /v1/models (a page) and GET /v1/models/{id}, shaped
 * like the real ones, with each model's context window (`max_input_tokens`), output cap
 * (`max_tokens`) and capabilities (the thinking types and effort levels it takes). The Messages
 * endpoint enforces the same limits (window-checks.ts) and capabilities (thinking-checks.ts).
 * Tests pass their own models, e.g. one with a small window, so a chat overflows without 200k
 * tokens of text.
 */

export interface ScriptedModel {
  id: string;
  display_name: string;
  created_at?: string;
  max_input_tokens: number;
  max_tokens: number;
  /** Thinking types it takes (default: a fixed budget only, as Claude 3.7 to 4.5). */
  thinking?: { adaptive: boolean; enabled: boolean };
  /** Effort levels it takes (default none: no effort parameter). */
  efforts?: string[];
}

const BUDGET_ONLY = { adaptive: false, enabled: true };

export const DEFAULT_MODELS: readonly ScriptedModel[] = [
  {
    id: 'claude-opus-4-6',
    display_name: 'Claude Opus 4.6',
    created_at: '2026-02-05T00:00:00Z',
    max_input_tokens: 200_000,
    max_tokens: 128_000,
    thinking: { adaptive: true, enabled: true },
    efforts: ['low', 'medium', 'high', 'max'],
  },
  { id: 'claude-opus-4-5-20251101', display_name: 'Claude Opus 4.5', created_at: '2025-11-24T00:00:00Z', max_input_tokens: 200_000, max_tokens: 64_000, thinking: BUDGET_ONLY },
  { id: 'claude-haiku-4-5-20251001', display_name: 'Claude Haiku 4.5', created_at: '2025-10-15T00:00:00Z', max_input_tokens: 200_000, max_tokens: 64_000, thinking: BUDGET_ONLY },
  { id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z', max_input_tokens: 200_000, max_tokens: 64_000, thinking: BUDGET_ONLY },
  { id: 'claude-opus-4-1-20250805', display_name: 'Claude Opus 4.1', created_at: '2025-08-05T00:00:00Z', max_input_tokens: 200_000, max_tokens: 32_000, thinking: BUDGET_ONLY },
];

/** Limits of a model id the list does not hold (the server accepts any model name). */
export const UNLISTED_MODEL_LIMITS = { max_input_tokens: 200_000, max_tokens: 64_000 } as const;

const EPOCH = '1970-01-01T00:00:00Z';

const yes = (supported: boolean) => ({ supported });

function capabilities(model: ScriptedModel) {
  const thinking = model.thinking ?? BUDGET_ONLY;
  const efforts = model.efforts ?? [];
  const level = (name: string) => yes(efforts.includes(name));
  return {
    batch: yes(true),
    citations: yes(true),
    code_execution: yes(false),
    context_management: { supported: false, clear_thinking_20251015: null, clear_tool_uses_20250919: null, compact_20260112: null },
    effort: { supported: efforts.length > 0, low: level('low'), medium: level('medium'), high: level('high'), max: level('max'), xhigh: level('xhigh') },
    image_input: yes(true),
    pdf_input: yes(true),
    server_tools: { supported: false, code_execution: yes(false), web_search: yes(false) },
    structured_outputs: yes(true),
    thinking: {
      supported: thinking.adaptive || thinking.enabled,
      types: { adaptive: yes(thinking.adaptive), enabled: yes(thinking.enabled), disabled: yes(true), between_tools: yes(false) },
    },
  };
}

function wire(model: ScriptedModel) {
  return {
    type: 'model' as const,
    id: model.id,
    display_name: model.display_name,
    created_at: model.created_at ?? EPOCH,
    capabilities: capabilities(model),
    max_input_tokens: model.max_input_tokens,
    max_tokens: model.max_tokens,
  };
}

export function modelsPage(models: readonly ScriptedModel[] = DEFAULT_MODELS) {
  const data = models.map(wire);
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
}

/** The listed model an id names: itself, or the alias without its date ("claude-sonnet-4-5"). */
export function findModel(models: readonly ScriptedModel[], id: string): ScriptedModel | undefined {
  return models.find((m) => m.id === id) ?? models.find((m) => m.id.replace(/-\d{8}$/, '') === id);
}

/** GET /v1/models/{id}: the model, or null for the API's 404. */
export function modelInfo(models: readonly ScriptedModel[], id: string) {
  const model = findModel(models, id);
  return model ? wire(model) : null;
}

/** The window and output cap the Messages endpoint holds a request for this model to. */
export function limitsOf(models: readonly ScriptedModel[], id: string): { max_input_tokens: number; max_tokens: number } {
  return findModel(models, id) ?? UNLISTED_MODEL_LIMITS;
}

/** The capabilities the request checks hold a model to (null: unknown model, nothing is held against it). */
export function modelCapabilities(models: readonly ScriptedModel[], id: string): ReturnType<typeof capabilities> | null {
  const model = findModel(models, id);
  return model ? capabilities(model) : null;
}
