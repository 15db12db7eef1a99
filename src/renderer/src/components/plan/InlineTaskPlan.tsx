import { useId, useMemo } from 'react';
import { isPlanVisible, type Plan } from '../../../../shared/plan';
import { buildStepTree, planProgress, stepLabel } from '../../plan/plan-tree';
import { useCollapsed } from '../../plan/use-collapsed';
import { ExportPlanButton } from './ExportPlanButton';
import { PlanStepItem, type StepAttention } from './PlanStepItem';
import { UndoPlanButton } from '../escalation/UndoPlanButton';

/**
 * The live plan above the composer (seed 002, design.md §5): shown only while a plan with
 * steps is active; a header button collapses the body, and the choice is remembered.
 */
export function InlineTaskPlan({ plan, attention }: { plan: Plan | null | undefined; attention?: StepAttention }) {
  if (!isPlanVisible(plan)) return null;
  return <VisiblePlan plan={plan} attention={attention} />;
}

function VisiblePlan({ plan, attention }: { plan: Plan; attention?: StepAttention }) {
  const [collapsed, toggle] = useCollapsed();
  const bodyId = useId();
  const { completed, total, percent } = planProgress(plan);
  const tree = useMemo(() => buildStepTree(plan.steps), [plan.steps]);
  const labels = useMemo(() => new Map(plan.steps.map((step) => [step.id, stepLabel(step)])), [plan.steps]);
  const current = plan.steps.find((step) => step.status === 'in_progress');
  const labelOf = (id: number) => labels.get(id) ?? String(id);

  return (
    <section role="region" aria-label="Task plan" className="task-plan">
      <button type="button" className="task-plan-header" aria-expanded={!collapsed} aria-controls={bodyId} onClick={toggle}
        aria-keyshortcuts="Control+Shift+L Meta+Shift+L">
        <span className="task-plan-title">Task Plan</span>
        <span className="task-plan-count">
          {completed}/{total} steps
        </span>
        <span className="task-plan-percent">{percent}%</span>
        {collapsed && current && <span className="task-plan-now">{current.title}</span>}
        <span className={`chevron${collapsed ? '' : ' chevron--open'}`} aria-hidden="true">
          ▾
        </span>
      </button>
      <div
        role="progressbar"
        aria-label="Plan progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="task-plan-bar"
      >
        <div className="task-plan-bar-fill" style={{ width: `${percent}%` }} />
      </div>
      {/* A stuck step's question shows at the step; here when the body is collapsed or the step is unknown. */}
      {attention && (collapsed || !plan.steps.some((s) => s.id === attention.stepId)) && attention.element}
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
                <PlanStepItem key={node.step.id} node={node} labelOf={labelOf} attention={attention} />
              ))}
            </ul>
            <div className="task-plan-actions">
              <ExportPlanButton />
              <UndoPlanButton />
            </div>
          </>
        )}
      </div>
    </section>
  );
}
