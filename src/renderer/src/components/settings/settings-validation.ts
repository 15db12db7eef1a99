import { Settings } from '../../../../shared/settings';
import { thinkingBudgetCap } from '../../../../shared/thinking';
import type { ModelInfo } from '../../store/types';
import { formatCount } from '../../../../shared/numbers';

/** The number fields of Settings, with their limits taken from the one settings schema. */
export type NumberFieldKey = 'maxRetries' | 'retryDelayMs' | 'thinkingBudgetTokens' | 'maxModelTurns' | 'runsAtOnce' | 'goalChecks'
  | 'subAgentDepth' | 'subAgentsAtOnce' | 'webSearchMaxUses';

export interface NumberLimits {
  label: string;
  min: number;
  max: number;
  /** The spinner's step; any whole number in range is valid. */
  step: number;
  unit?: string;
  /** Whose limit the max is ("Claude Sonnet 4.5"), when it depends on the chosen model. */
  forWhom?: string;
}

function limitsOf(key: NumberFieldKey, label: string, step: number, unit?: string): NumberLimits {
  const schema = Settings.shape[key].unwrap();
  return { label, min: schema.minValue ?? 0, max: schema.maxValue ?? Number.MAX_SAFE_INTEGER, step, ...(unit ? { unit } : {}) };
}

export const NUMBER_FIELDS: Record<NumberFieldKey, NumberLimits> = {
  maxRetries: limitsOf('maxRetries', 'Max retries', 1),
  retryDelayMs: limitsOf('retryDelayMs', 'Retry delay', 100, 'ms'),
  thinkingBudgetTokens: limitsOf('thinkingBudgetTokens', 'Thinking budget', 1024, 'tokens'),
  maxModelTurns: limitsOf('maxModelTurns', 'Max model turns', 1),
  runsAtOnce: limitsOf('runsAtOnce', 'Runs at once', 1),
  goalChecks: limitsOf('goalChecks', 'Goal checks', 1),
  subAgentDepth: limitsOf('subAgentDepth', 'Sub-agent depth', 1),
  subAgentsAtOnce: limitsOf('subAgentsAtOnce', 'Sub-agents at once', 1),
  webSearchMaxUses: limitsOf('webSearchMaxUses', 'Web searches per request', 1),
};

/** The thinking budget's limits for the chosen model: its output cap, less room for the reply. */
export function thinkingBudgetLimits(model: ModelInfo | undefined): NumberLimits {
  const limits = NUMBER_FIELDS.thinkingBudgetTokens;
  if (!model?.maxOutputTokens) return limits;
  return { ...limits, max: Math.min(limits.max, thinkingBudgetCap(model.maxOutputTokens)), forWhom: model.displayName };
}

const format = (n: number) => formatCount(n);
const forWhom = (limits: NumberLimits) => (limits.forWhom ? ` for ${limits.forWhom}` : '');

/** "From 0 to 10." — shown under the field, so the limits are known before anything is wrong. */
export function limitsText(limits: NumberLimits): string {
  return `From ${format(limits.min)} to ${format(limits.max)}${limits.unit ? ` ${limits.unit}` : ''}${forWhom(limits)}.`;
}

/** Why the typed text is not a valid value for the field, in words; null when it is. */
export function numberFieldError(limits: NumberLimits, text: string): string | null {
  const range = `from ${format(limits.min)} to ${format(limits.max)}`;
  const typed = text.trim();
  if (typed === '') return `${limits.label} is needed: enter a whole number ${range}.`;
  const value = Number(typed);
  if (!Number.isFinite(value)) return `${limits.label} must be a number ${range}.`;
  if (!Number.isInteger(value)) return `${limits.label} must be a whole number ${range}.`;
  if (value < limits.min) return `${limits.label} can't be less than ${format(limits.min)}: enter a number ${range}.`;
  if (value > limits.max) return `${limits.label} can't be more than ${format(limits.max)}${forWhom(limits)}: enter a number ${range}.`;
  return null;
}

export type FieldErrors = Partial<Record<NumberFieldKey | 'mcpServers', string>>;

/** `limits` replaces a field's own limits where they depend on other choices (the model's cap). */
export function numberFieldErrors(values: Record<NumberFieldKey, string>, limits: Partial<Record<NumberFieldKey, NumberLimits>> = {}): FieldErrors {
  const errors: FieldErrors = {};
  for (const key of Object.keys(NUMBER_FIELDS) as NumberFieldKey[]) {
    const error = numberFieldError(limits[key] ?? NUMBER_FIELDS[key], values[key]);
    if (error) errors[key] = error;
  }
  return errors;
}

/**
 * Main validates too (the renderer is not trusted); its refusal names the field as
 * "patch.maxRetries: …". Such a message goes to that field when it is one the dialog shows.
 */
export function fieldOfRefusal(message: string): NumberFieldKey | 'mcpServers' | null {
  const field = /\bpatch\.(\w+)/.exec(message)?.[1];
  if (field === 'mcpServers') return field;
  return field !== undefined && field in NUMBER_FIELDS ? (field as NumberFieldKey) : null;
}
