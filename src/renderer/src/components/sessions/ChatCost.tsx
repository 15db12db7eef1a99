import { formatUsd } from '../../../../shared/usage';
import { useWaypoint } from '../../store/store-context';
import { formatCount } from '../../../../shared/numbers';

/** The current chat's running cost for the header, e.g. "$0.04" (hidden until Claude has been asked). */
export function ChatCost() {
  const usage = useWaypoint((s) => s.sessions.find((x) => x.id === s.currentSessionId)?.usage);
  if (!usage) return null;
  const tokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens;
  const detail = `${formatCount(tokens)} tokens: ${formatCount(usage.inputTokens)} input, ${formatCount(usage.cacheReadTokens)} read from cache, ${formatCount(usage.cacheWriteTokens)} written to cache, ${formatCount(usage.outputTokens)} output`;
  return (
    <span className="header-chip header-chip--cost" title={detail}>
      <span className="sr-only">Cost of this chat: </span>
      {formatUsd(usage.costUsd)}
    </span>
  );
}

/** A plan step's share of the cost, when any request was made while it was in progress. */
export function StepCost({ stepId }: { stepId: number }) {
  const cost = useWaypoint((s) => {
    const planId = s.currentSessionId ? s.plans[s.currentSessionId]?.id : undefined;
    return planId ? s.sessions.find((x) => x.id === s.currentSessionId)?.stepCosts?.[`${planId}#${stepId}`] : undefined;
  });
  if (cost === undefined) return null;
  return (
    <span className="step-cost">
      <span className="sr-only">Cost of this step: </span>
      {formatUsd(cost)}
    </span>
  );
}
