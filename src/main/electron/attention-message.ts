import type { WaypointEvent } from '../../shared/contract';

/** What a desktop notification says for an event, or null when the event needs no attention. */
export function attentionMessage(event: WaypointEvent): { title: string; body: string } | null {
  if (event.type !== 'escalation_requested') return null;
  const { request } = event;
  const who = request.stepId === null ? 'A task' : `Step ${request.stepId} ("${request.stepTitle.slice(0, 80)}")`;
  return {
    title: 'Waypoint needs your attention',
    body: `${who} keeps failing. Skip it, abort the plan, or give Claude guidance.`,
  };
}
