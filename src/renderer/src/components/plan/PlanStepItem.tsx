import { useId, useState, type ReactNode } from 'react';
import type { Plan, StepStatus } from '../../../../shared/plan';
import type { UserEdit } from '../../../../shared/plan-edit';
import { useWaypoint } from '../../store/store-context';
import type { PlanSeen } from '../../store/plan-edit-slice';
import { STATUS_TEXT, type StepNode } from '../../plan/plan-tree';
import { Icon, type IconName } from '../icons/Icon';
import { hasDetail, StepDetail } from './StepDetail';
import { StepCost } from '../sessions/ChatCost';
import { EditStepMenu } from './EditStepMenu';
import { stepActions, type StepAction } from './step-actions';
import { StepTitleEditor } from './StepTitleEditor';

/** Something that must show at one step: the escalation of a step that keeps failing. */
export interface StepAttention {
  stepId: number | null;
  element: ReactNode;
}

interface Props {
  node: StepNode;
  /** The plan the step is in (which edits apply) and its chat (where they go). */
  plan: Plan;
  sessionId: string;
  /** The step's number as the panel shows it (its position, or the dialect's label). */
  numberOf: (id: number) => string;
  /** The step whose question waits above the list: marked here so the two are connected. */
  waitingStepId?: number | null;
}

const EDIT_OF: Record<Exclude<StepAction, 'Rename'>, (stepId: number) => UserEdit> = {
  Skip: (stepId) => ({ kind: 'skip', stepId }),
  Delete: (stepId) => ({ kind: 'delete', stepId }),
  'Move up': (stepId) => ({ kind: 'move', stepId, direction: 'up' }),
  'Move down': (stepId) => ({ kind: 'move', stepId, direction: 'down' }),
};

/** One step as a listitem carrying data-status, its sub-steps nested inside; "Edit step" edits it. */
export function PlanStepItem({ node, plan, sessionId, numberOf, waitingStepId }: Props) {
  const { step, children } = node;
  const [open, setOpen] = useState(false);
  // The plan as it was when "Rename" opened the box: the rename names that version, so an edit
  // made meanwhile (another tab) is not silently overwritten. After a refusal the panel has said
  // why: Enter again renames the plan as it is then ('latest').
  const [renaming, setRenaming] = useState<PlanSeen | 'latest' | null>(null);
  const editPlan = useWaypoint((s) => s.editPlan);
  const detailId = useId();
  const titleId = useId();
  const calls = step.calls?.length ?? 0;
  const shown: PlanSeen = { planId: plan.id, version: plan.version };
  const onAction = (action: StepAction) => {
    if (action === 'Rename') setRenaming(shown);
    else void editPlan(sessionId, EDIT_OF[action](step.id), shown);
  };
  const rename = async (title: string, seen: PlanSeen | 'latest') => {
    const result = await editPlan(sessionId, { kind: 'rename', stepId: step.id, title }, seen === 'latest' ? undefined : seen);
    if (!result.ok) setRenaming('latest');
    return result.ok;
  };
  const number = numberOf(step.id);
  // A step shown under another number than its id gets the id in its detail (Claude says "step 6").
  const expandable = hasDetail(step) || number !== String(step.id);
  return (
    <li data-status={step.status} className={`plan-step plan-step--${step.status}`}>
      <div className="plan-step-row">
        <StatusMark status={step.status} />
        <span className="plan-step-label">{number}.</span>
        {renaming ? (
          <StepTitleEditor title={step.title} onDone={() => setRenaming(null)}
            onSave={(title) => rename(title, renaming)} />
        ) : (
          <span className="plan-step-title" id={titleId}>{step.title}</span>
        )}
        <span className="sr-only"> ({STATUS_TEXT[step.status]})</span>
        {waitingStepId === step.id && (
          <span className="plan-step-waiting">
            <Icon name="alert" size={12} /> needs your answer
          </span>
        )}
        {step.dependsOn.length > 0 && <span className="plan-step-deps">after {step.dependsOn.map(numberOf).join(', ')}</span>}
        {calls > 0 && <span className="plan-step-calls">{calls} tool call{calls === 1 ? '' : 's'}</span>}
        <StepCost stepId={step.id} />
        {!renaming && <EditStepMenu actions={stepActions(plan, step)} describedBy={titleId} onAction={onAction} />}
        {expandable && (
          <button
            type="button"
            className="plan-step-toggle"
            aria-expanded={open}
            aria-controls={open ? detailId : undefined}
            aria-label={`Details for step ${number}`}
            onClick={() => setOpen((was) => !was)}
          >
            <Icon name="chevron" size={14} className={`chevron${open ? ' chevron--open' : ''}`} />
          </button>
        )}
      </div>
      {open && <StepDetail step={step} id={detailId} />}
      {children.length > 0 && (
        <ul className="plan-substeps">
          {children.map((child) => (
            <PlanStepItem key={child.step.id} node={child} plan={plan} sessionId={sessionId} numberOf={numberOf} waitingStepId={waitingStepId} />
          ))}
        </ul>
      )}
    </li>
  );
}

const STATUS_ICON: Record<Exclude<StepStatus, 'in_progress'>, IconName> = {
  pending: 'circle',
  completed: 'check',
  failed: 'cross',
  skipped: 'skip',
};

function StatusMark({ status }: { status: StepStatus }) {
  if (status === 'in_progress') return <span className="plan-mark plan-spinner" aria-hidden="true" />;
  return (
    <span className="plan-mark" aria-hidden="true">
      <Icon name={STATUS_ICON[status]} size={12} />
    </span>
  );
}
