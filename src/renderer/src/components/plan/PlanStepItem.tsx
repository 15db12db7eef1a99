import { useId, useState } from 'react';
import type { PlanStep } from '../../../../shared/plan';
import { STATUS_MARK, STATUS_TEXT, stepLabel, type StepNode } from '../../plan/plan-tree';
import { hasDetail, StepDetail } from './StepDetail';

interface Props {
  node: StepNode;
  labelOf: (id: number) => string;
}

/** One step as a listitem carrying data-status, its sub-steps nested inside. */
export function PlanStepItem({ node, labelOf }: Props) {
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
      {children.length > 0 && (
        <ul className="plan-substeps">
          {children.map((child) => (
            <PlanStepItem key={child.step.id} node={child} labelOf={labelOf} />
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
