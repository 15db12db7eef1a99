import { memo, useId, useMemo, useState, type ReactNode } from 'react';
import type { StepStatus } from '../../../../shared/plan';
import type { UserEdit } from '../../../../shared/plan-edit';
import { useWaypoint } from '../../store/store-context';
import type { PlanSeen } from '../../store/plan-edit-slice';
import { STATUS_TEXT, type StepNode } from '../../plan/plan-tree';
import { Icon, type IconName } from '../icons/Icon';
import { hasDetail, StepDetail } from './StepDetail';
import { StepCost } from '../sessions/ChatCost';
import { EditStepMenu } from './EditStepMenu';
import type { StepAction } from './step-actions';
import { sameSubtree, type RowFacts } from './plan-rows';
import { StepTitleEditor } from './StepTitleEditor';
import { SubAgentGroups } from './SubAgentGroups';

/** Something that must show at one step: the escalation of a step that keeps failing. */
export interface StepAttention {
  stepId: number | null;
  element: ReactNode;
}

interface Props {
  node: StepNode;
  /** Each step's number as the panel shows it (its position, or the dialect's label), "after …" and menu. */
  facts: ReadonlyMap<number, RowFacts>;
  /** The plan version shown now, which an edit names; read when the user acts. */
  seen: () => PlanSeen;
  /** The chat the edits go to. */
  sessionId: string;
  /** The step whose question waits above the list: marked here so the two are connected. */
  waitingStepId?: number | null;
}

const EDIT_OF: Record<Exclude<StepAction, 'Rename'>, (stepId: number) => UserEdit> = {
  Skip: (stepId) => ({ kind: 'skip', stepId }),
  Delete: (stepId) => ({ kind: 'delete', stepId }),
  'Move up': (stepId) => ({ kind: 'move', stepId, direction: 'up' }),
  'Move down': (stepId) => ({ kind: 'move', stepId, direction: 'down' }),
};

/**
 * One step as a listitem carrying data-status, its sub-steps nested inside; "Edit step" edits it.
 * Memoised: a plan update re-renders only the rows whose step or facts changed (plan-rows.ts).
 */
export const PlanStepItem = memo(PlanStepRow, (before, after) =>
  before.node === after.node &&
  before.seen === after.seen &&
  before.sessionId === after.sessionId &&
  before.waitingStepId === after.waitingStepId &&
  sameSubtree(after.node, before.facts, after.facts),
);

function PlanStepRow({ node, facts, seen, sessionId, waitingStepId }: Props) {
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
  const place = useMemo(() => ({ stepId: step.id }), [step.id]);
  const onAction = (action: StepAction) => {
    if (action === 'Rename') setRenaming(seen());
    else void editPlan(sessionId, EDIT_OF[action](step.id), seen());
  };
  const rename = async (title: string, at: PlanSeen | 'latest') => {
    const result = await editPlan(sessionId, { kind: 'rename', stepId: step.id, title }, at === 'latest' ? undefined : at);
    if (!result.ok) setRenaming('latest');
    return result.ok;
  };
  const { number, after, actions } = facts.get(step.id) ?? { number: String(step.id), after: null, actions: [] };
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
        {after && <span className="plan-step-deps">after {after}</span>}
        {calls > 0 && <span className="plan-step-calls">{calls} tool call{calls === 1 ? '' : 's'}</span>}
        <StepCost stepId={step.id} />
        {!renaming && <EditStepMenu actions={actions} describedBy={titleId} onAction={onAction} />}
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
      {/* The sub-agents started while this step was in progress (docs/contract.md §10). */}
      <SubAgentGroups sessionId={sessionId} place={place} />
      {children.length > 0 && (
        <ul className="plan-substeps">
          {children.map((child) => (
            <PlanStepItem key={child.step.id} node={child} facts={facts} seen={seen} sessionId={sessionId} waitingStepId={waitingStepId} />
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

/** Whether Claude works in the current chat now: a step in progress spins only then. */
function useWorking(): boolean {
  return useWaypoint((s) => {
    const status = s.currentSessionId ? s.runStates[s.currentSessionId]?.status : undefined;
    return status === 'running' || status === 'retrying';
  });
}

function StatusMark({ status }: { status: StepStatus }) {
  const working = useWorking();
  // A step still in progress when the run ended (a pause, a question waiting) would spin for nothing.
  if (status === 'in_progress' && working) return <span className="plan-mark plan-spinner" aria-hidden="true" />;
  if (status === 'in_progress') {
    return (
      <span className="plan-mark plan-mark--held" aria-hidden="true">
        <Icon name="pause" size={12} />
      </span>
    );
  }
  return (
    <span className="plan-mark" aria-hidden="true">
      <Icon name={STATUS_ICON[status]} size={12} />
    </span>
  );
}
