import { memo, useCallback, useId, useLayoutEffect, useMemo, useRef } from 'react';
import { isAwaitingApproval, isPlanVisible, type Plan } from '../../../../shared/plan';
import { planProgress } from '../../plan/plan-tree';
import { useCollapsed } from '../../plan/use-collapsed';
import { Icon } from '../icons/Icon';
import { ExportPlanButton } from './ExportPlanButton';
import { PlanStepItem, type StepAttention } from './PlanStepItem';
import { UndoPlanButton } from '../escalation/UndoPlanButton';
import { usePlanPause } from '../../plan/use-plan-pause';
import { ContinuePlan } from './ContinuePlan';
import { AddStep } from './AddStep';
import { PlanProposal } from './PlanProposal';
import { PlanBudgetControl } from '../budget/PlanBudgetControl';
import { PlanBudgetStop } from '../budget/PlanBudgetStop';
import { PlanRefusal } from './PlanRefusal';
import { useWaypoint } from '../../store/store-context';
import type { PlanSeen } from '../../store/plan-edit-slice';
import { planRows, type PlanRows } from './plan-rows';
import { SubAgentGroups, SubAgentsRegion } from './SubAgentGroups';

/**
 * The live plan above the composer (seed 002, docs/contract.md §5): shown only while a plan with
 * steps is active; a header button collapses the body, and the choice is remembered.
 */
export const InlineTaskPlan = memo(function InlineTaskPlan({ plan, attention }: { plan: Plan | null | undefined; attention?: StepAttention }) {
  const sessionId = useWaypoint((s) => s.currentSessionId);
  // Sub-agents show in the region even while the chat has no plan of its own (docs/contract.md §10).
  if (!isPlanVisible(plan)) return sessionId ? <SubAgentsRegion sessionId={sessionId} /> : null;
  return <VisiblePlan plan={plan} attention={attention} />;
});

/** The rows of the plan, sharing what did not change with the previous version's (plan-rows.ts). */
function usePlanRows(plan: Plan): PlanRows {
  const previous = useRef<PlanRows | undefined>(undefined);
  return useMemo(() => (previous.current = planRows(plan, previous.current)), [plan]);
}

/**
 * The plan version the panel shows, read when the user acts rather than passed to every row:
 * an edit names the version it was made on, and the rows need not re-render for each version.
 */
function useSeenPlan(plan: Plan): () => PlanSeen {
  const shown = useRef(plan);
  useLayoutEffect(() => {
    shown.current = plan;
  }, [plan]);
  return useCallback(() => ({ planId: shown.current.id, version: shown.current.version }), []);
}

function VisiblePlan({ plan, attention }: { plan: Plan; attention?: StepAttention }) {
  const [collapsed, toggle] = useCollapsed();
  const bodyId = useId();
  const { completed, total, percent } = planProgress(plan);
  const { tree, facts } = usePlanRows(plan);
  const seen = useSeenPlan(plan);
  const current = plan.steps.find((step) => step.status === 'in_progress');
  const pausedLeft = usePlanPause();
  const sessionId = useWaypoint((s) => s.currentSessionId) ?? '';
  const proposed = isAwaitingApproval(plan);
  const region = useMemo(() => ({ region: plan }), [plan]);

  return (
    <section role="region" aria-label="Task plan" className="task-plan">
      <button type="button" className="task-plan-header" aria-expanded={!collapsed} aria-controls={bodyId} onClick={toggle}
        aria-keyshortcuts="Control+Shift+L Meta+Shift+L">
        <span className="task-plan-title">Task Plan</span>
        {proposed && <span className="task-plan-badge task-plan-proposed">Proposed</span>}
        {pausedLeft !== null && <span className="task-plan-badge">Paused</span>}
        <span className="task-plan-count">
          {completed}/{total} steps
        </span>
        <span className="task-plan-percent">{percent}%</span>
        {collapsed && current && <span className="task-plan-now">{current.title}</span>}
        <Icon name="chevron" size={14} className={`chevron${collapsed ? '' : ' chevron--open'}`} />
      </button>
      <div
        role="progressbar"
        aria-label="Plan progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="task-plan-bar"
      >
        <div className="task-plan-bar-fill" style={{ transform: `scaleX(${percent / 100})` }} />
      </div>
      {proposed && sessionId && <PlanProposal plan={plan} sessionId={sessionId} />}
      {sessionId && <PlanBudgetControl plan={plan} sessionId={sessionId} />}
      {sessionId && <PlanBudgetStop plan={plan} sessionId={sessionId} />}
      {pausedLeft !== null && <ContinuePlan left={pausedLeft} />}
      {sessionId && <PlanRefusal sessionId={sessionId} />}
      {/* A question that blocks the run sits above the steps, outside their scroll area, so it is
          always in view (its step is marked in the list). */}
      {attention?.element}
      <div id={bodyId} className="task-plan-body" hidden={collapsed}>
        {!collapsed && (
          <>
            <p className="task-plan-goal">{plan.goal}</p>
            {plan.explanation && plan.explanation !== plan.goal && <p className="task-plan-explanation">{plan.explanation}</p>}
            {current && (
              <p className="task-plan-current">
                <span className="muted">Now:</span> {current.title}
              </p>
            )}
            <ul className="plan-steps">
              {tree.map((node) => (
                <PlanStepItem key={node.step.id} node={node} facts={facts} seen={seen} sessionId={sessionId} waitingStepId={attention?.stepId} />
              ))}
            </ul>
            {sessionId && <SubAgentGroups sessionId={sessionId} place={region} />}
            <div className="task-plan-actions">
              {sessionId && <AddStep sessionId={sessionId} />}
              <ExportPlanButton />
              {/* A proposal has changed nothing yet: nothing to undo. */}
              {!proposed && <UndoPlanButton />}
            </div>
          </>
        )}
      </div>
    </section>
  );
}
