import type { ModelInfo } from '../../store/types';
import { formatCount } from '../../../../shared/numbers';

const tokens = (n: number) => formatCount(n);

/** "Context window 200,000 tokens; replies up to 64,000 tokens." — what the Models API says of the model. */
export function modelLimitsText(model: ModelInfo | undefined): string {
  if (!model?.contextWindow || !model.maxOutputTokens) return 'Waypoint keeps each chat within the model’s context window, compacting older turns when needed.';
  return `Context window ${tokens(model.contextWindow)} tokens; replies up to ${tokens(model.maxOutputTokens)} tokens. Older turns are compacted when a chat would pass the window.`;
}
