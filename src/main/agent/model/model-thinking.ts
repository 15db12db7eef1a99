import type { ModelCapabilities } from '@anthropic-ai/sdk/resources/models';
import type { ModelThinking } from '../../../shared/thinking';

/**
 * What extended thinking a model takes, as the Models API says in `capabilities`. Models it
 * does not describe, or when it cannot be asked, go by Waypoint's table (model-catalog.ts);
 * model-facts.ts asks and remembers.
 */

const NONE: ModelThinking = { adaptive: false, enabled: false, efforts: [] };

/** The Models API's capabilities as ModelThinking, or null when it gave none. */
export function fromCapabilities(capabilities: ModelCapabilities | null | undefined): ModelThinking | null {
  const thinking = capabilities?.thinking;
  if (!thinking) return null;
  const effort = capabilities.effort;
  const efforts = effort?.supported ? (['low', 'medium', 'high', 'xhigh', 'max'] as const).filter((level) => effort[level]?.supported) : [];
  if (!thinking.supported) return { ...NONE, efforts: [...efforts] };
  return { adaptive: !!thinking.types?.adaptive?.supported, enabled: !!thinking.types?.enabled?.supported, efforts: [...efforts] };
}
