import { useId, useState, type ReactNode } from 'react';
import type { PlanStep } from '../../../../shared/plan';
import { STATUS_MARK, STATUS_TEXT, stepLabel, type StepNode } from '../../plan/plan-tree';
import { hasDetail, StepDetail } from './StepDetail';
import { StepCost } from '../sessions/ChatCost';

/** Something that must show at one step: the escalation of a step that keeps failing. */
export interface StepAttention {
  stepId: number | null;
  element: ReactNode;
}

interface Props {
  node: StepNode;
  labelOf: (id: number) => string;
  attention?: StepAttention;
}

/** One step as a listitem carrying data-status, its sub-steps nested inside. */
export function PlanStepItem({ node, labelOf, attention }: Props) {
  const { step, children } = node;
  const [open, setOpen] = useState(false);
  const detailId = useId();
  const label = stepLabel(step);
  return (
    <li data-status={step.status} className={`plan-step plan-step--${step.status}`}>
      <div className="plan-step-row">
        <StatusMark step={step} />
        <span className="plan-step-label">{label}.</span>
        <span className="plan-step-title">{step.title}</span>
        <span className="sr-only"> ({STATUS_TEXT[step.status]})</span>
        {step.dependsOn.length > 0 && (
          <span className="plan-step-deps">after {step.dependsOn.map(labelOf).join(', ')}</span>
        )}
        <StepCost stepId={step.id} />
        {hasDetail(step) && (
          <button
            type="button"
            className="plan-step-toggle"
            aria-expanded={open}
            aria-controls={open ? detailId : undefined}
            aria-label={`Details for step ${label}`}
            onClick={() => setOpen((was) => !was)}
          >
            {open ? '▾' : '▸'}
          </button>
        )}
      </div>
      {open && <StepDetail step={step} id={detailId} />}
      {attention && attention.stepId === step.id && attention.element}
      {children.length > 0 && (
        <ul className="plan-substeps">
          {children.map((child) => (
            <PlanStepItem key={child.step.id} node={child} labelOf={labelOf} attention={attention} />
          ))}
        </ul>
      )}
    </li>
  );
}

function StatusMark({ step }: { step: PlanStep }) {
  if (step.status === 'in_progress') return <span className="plan-mark plan-spinner" aria-hidden="true" />;
  return (
    <span className="plan-mark" aria-hidden="true">
      {STATUS_MARK[step.status]}
    </span>
  );
}
