import { isUnfinished, continuePlanMessage } from '../../../../shared/plan-pause';
import type { TranscriptItem } from '../../../../shared/transcript';
import { useWaypoint } from '../../store/store-context';
import { RunActionButton } from './RunActionButton';

/** The message "Continue" sends when no plan waits: Claude picks up where the limit stopped it. */
export const CONTINUE_MESSAGE = 'Continue where you stopped.';

/**
 * Whether the last run was cut short by "Max model turns" and nothing happened since: its notice
 * is the last item but for plan lines and cards, and the chat is idle.
 */
export function canContinue(items: readonly TranscriptItem[] | undefined, idle: boolean): boolean {
  const last = items?.findLast((item) => item.kind !== 'plan_change' && item.kind !== 'plan_completion');
  return idle && last?.kind === 'notice' && last.code === 'turn_limit';
}

/**
 * "Continue" under the turn-limit notice: a new run that goes on — with the plan's own message
 * when a plan waits (as "Continue plan" sends), else a plain request to carry on.
 */
export function ContinueRun({ sessionId }: { sessionId: string }) {
  const plan = useWaypoint((s) => s.plans[sessionId]);
  const sendMessage = useWaypoint((s) => s.sendMessage);
  return <RunActionButton label="Continue" onAct={() => sendMessage(isUnfinished(plan) ? continuePlanMessage(plan) : CONTINUE_MESSAGE)} />;
}
