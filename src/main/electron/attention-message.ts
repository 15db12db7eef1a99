import type { WaypointEvent } from '../../shared/contract';

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * What a desktop notification says for an event, or null when the event needs no attention: the
 * questions a run pauses on (an escalation, an approval, a question from Claude).
 */
export function attentionMessage(event: WaypointEvent): { title: string; body: string } | null {
  switch (event.type) {
    case 'escalation_requested': {
      const { request } = event;
      const who = request.stepId === null ? 'A task' : `Step ${request.stepId} ("${request.stepTitle.slice(0, 80)}")`;
      return { title: 'Waypoint needs your attention', body: `${who} keeps failing. Skip it, abort the plan, or give Claude guidance.` };
    }
    case 'approval_requested':
      return { title: 'Waypoint needs your approval', body: `${clip(event.request.summary, 120)} — approve or deny it in Waypoint.` };
    case 'question_requested': {
      const { request } = event;
      const options = request.options.length ? ` (${clip(request.options.join(' / '), 80)})` : '';
      return { title: 'Claude asks', body: `${clip(request.question, 160)}${options}` };
    }
    default:
      return null;
  }
}
