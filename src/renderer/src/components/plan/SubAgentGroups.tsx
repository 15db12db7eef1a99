import { memo, useMemo } from 'react';
import type { Plan } from '../../../../shared/plan';
import { subAgentProgress, subAgentStatusText, type SubAgent } from '../../../../shared/subagents';
import { isAskingFor } from '../../store/chat-asking';
import { useWaypoint } from '../../store/store-context';

const NONE: SubAgent[] = [];

/** Where a group shows: under a step of the chat's plan, in the region itself, or inside its parent sub-agent. */
export type SubAgentPlace = { stepId: number } | { region: Plan | null } | { parentAgentId: string };

function placed(agents: SubAgent[], place: SubAgentPlace): SubAgent[] {
  if ('parentAgentId' in place) return agents.filter((a) => a.parentAgentId === place.parentAgentId);
  const top = agents.filter((a) => !a.parentAgentId);
  if ('stepId' in place) return top.filter((a) => a.stepId === place.stepId);
  // The region holds those started with no step in progress, or whose step the plan no longer has.
  const steps = new Set(place.region?.steps.map((s) => s.id) ?? []);
  return top.filter((a) => a.stepId === null || !steps.has(a.stepId));
}

/**
 * The chat's sub-agents at one place of the "Task plan" region (docs/contract.md §10): each a group
 * "Sub-agent: TITLE" with its status, its plan's "N/M steps" and steps, and "Stop sub-agent".
 */
export const SubAgentGroups = memo(function SubAgentGroups({ sessionId, place }: { sessionId: string; place: SubAgentPlace }) {
  const all = useWaypoint((s) => s.subagents[sessionId]) ?? NONE;
  const here = useMemo(() => placed(all, place), [all, place]);
  if (here.length === 0) return null;
  return (
    <div className="subagents">
      {here.map((agent) => (
        <SubAgentGroup key={agent.id} sessionId={sessionId} agent={agent} />
      ))}
    </div>
  );
});

function SubAgentGroup({ sessionId, agent }: { sessionId: string; agent: SubAgent }) {
  const stop = useWaypoint((s) => s.stopSubAgent);
  const waits = useWaypoint((s) => isAskingFor(s, sessionId, agent));
  const progress = subAgentProgress(agent.plan);
  const inside = useMemo(() => ({ parentAgentId: agent.id }), [agent.id]);
  const name = `Sub-agent: ${agent.title}`;
  return (
    <div role="group" aria-label={name} className={`subagent subagent--${waits && agent.status === 'working' ? 'needs-you' : agent.status}`}>
      <div className="subagent-head">
        <span className="subagent-title">{name}</span>
        <span className="subagent-status">{subAgentStatusText(agent.status, waits)}</span>
        {progress && <span className="subagent-count">{progress}</span>}
        {agent.status === 'working' && (
          <button type="button" className="subagent-stop" onClick={() => void stop(sessionId, agent.id)}>
            Stop sub-agent
          </button>
        )}
      </div>
      {agent.plan && agent.plan.steps.length > 0 && (
        <ul className="plan-steps subagent-steps">
          {agent.plan.steps.map((step) => (
            <li key={step.id} data-status={step.status} className={`plan-step plan-step--${step.status}`}>
              <span className="plan-step-title">{step.title}</span>
            </li>
          ))}
        </ul>
      )}
      <SubAgentGroups sessionId={sessionId} place={inside} />
    </div>
  );
}

/** The "Task plan" region when the chat has sub-agents but no plan of its own to show. */
export function SubAgentsRegion({ sessionId }: { sessionId: string }) {
  const agents = useWaypoint((s) => s.subagents[sessionId]) ?? NONE;
  const place = useMemo(() => ({ region: null }), []);
  if (agents.length === 0) return null;
  return (
    <section role="region" aria-label="Task plan" className="task-plan">
      <div className="task-plan-body">
        <SubAgentGroups sessionId={sessionId} place={place} />
      </div>
    </section>
  );
}
