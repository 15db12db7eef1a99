import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { PromptActions } from '../prompt/PromptActions';
import { PromptDialog } from '../prompt/PromptDialog';
import type { EscalationAnswer, EscalationRequest } from '../../../../shared/prompts';
import { useScrollable } from '../../lib/use-scrollable';
import { AttemptList } from './AttemptList';
import './escalation.css';

interface Props {
  request: EscalationRequest;
  /** The step's label as the panel shows it ("3", "1.2"). */
  stepLabel: string | null;
  onAnswer(answer: EscalationAnswer): Promise<unknown>;
}

/**
 * A step that kept failing, waiting for the user (docs/contract.md §5): an alertdialog named "Step N
 * needs your attention", with the error, what was tried, and the three answers. Focus moves to
 * it when it appears; Ctrl/⌘+Enter in the Guidance box sends it.
 */
export function EscalationPrompt({ request, stepLabel, onAnswer }: Props) {
  const id = useId();
  const [guidance, setGuidance] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Aborting cancels the whole plan and can't be taken back from here: "Abort plan" asks first.
  const [confirmAbort, setConfirmAbort] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const abortRef = useRef<HTMLButtonElement>(null);
  const askedAbort = useRef(false);
  useEffect(() => {
    if (confirmAbort) keepRef.current?.focus();
    else if (askedAbort.current) abortRef.current?.focus();
  }, [confirmAbort]);
  const details = useRef<HTMLDivElement>(null);
  const detailsScroll = useScrollable(details);

  useEffect(() => {
    setBusy(false);
    setConfirmAbort(false);
  }, [request.id]);

  const answer = async (value: EscalationAnswer) => {
    setBusy(true);
    setProblem(null);
    await onAnswer(value);
    setBusy(false);
  };
  const sendGuidance = (event?: FormEvent) => {
    event?.preventDefault();
    if (!guidance.trim()) {
      setProblem('Write how Claude should proceed, or choose Skip step or Abort plan.');
      return;
    }
    void answer({ kind: 'guidance', text: guidance });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) sendGuidance();
  };
  const who = request.stepId === null ? 'This task' : `Step ${stepLabel ?? request.stepId}`;
  const tries = request.attempts.length;

  return (
    <PromptDialog requestId={request.id} agent={request.agent} className="escalation" labelledBy={`${id}-title`} describedBy={`${id}-what ${id}-error`}>
      <h3 id={`${id}-title`} className="escalation-title">
        {who} needs your attention
      </h3>
      <p id={`${id}-what`} className="escalation-what">
        After {tries} failed attempt{tries === 1 ? '' : 's'}, Claude could not complete “{request.stepTitle}”.
      </p>
      {/* The bulky part scrolls on its own, so the answers below always stay in view. */}
      <div ref={details} className="escalation-details" role="group" aria-label="What went wrong" tabIndex={detailsScroll ? 0 : undefined}>
        <div className="escalation-error">
          <span className="escalation-label">
            Error ({request.errorClass.replace(/_/g, ' ')}) in <code>{request.toolName}</code>:
          </span>
          <pre id={`${id}-error`}>{request.error}</pre>
        </div>
        {tries > 0 && <AttemptList attempts={request.attempts} heading="What was tried" />}
      </div>
      <form className="escalation-form" onSubmit={sendGuidance}>
        <label htmlFor={`${id}-guidance`} className="escalation-label">
          Guidance
        </label>
        <textarea
          id={`${id}-guidance`}
          value={guidance}
          rows={3}
          placeholder="Tell Claude how to proceed with this step…"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => setGuidance(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={busy}
        />
        {problem && (
          <p id={`${id}-problem`} className="escalation-problem" role="alert">
            {problem}
          </p>
        )}
        {/* The confirmation takes the answers' place, so the card keeps its height and stays in view. */}
        {confirmAbort ? (
          <div className="escalation-actions escalation-confirm" role="group" aria-labelledby={`${id}-abort`} aria-describedby={`${id}-abort-what`}>
            <strong id={`${id}-abort`}>Abort the plan?</strong>
            <span id={`${id}-abort-what`}>Claude stops and the plan is cancelled; files it changed stay until “Undo plan”.</span>
            <button ref={keepRef} type="button" className="btn" disabled={busy} onClick={() => setConfirmAbort(false)}>
              Keep the plan
            </button>
            <button type="button" className="btn btn--danger" disabled={busy} onClick={() => void answer({ kind: 'abort' })}>
              Yes, abort the plan
            </button>
          </div>
        ) : (
          <PromptActions
            className="escalation-actions"
            submit="Send guidance"
            busy={busy}
            actions={[
              { label: 'Skip step', onClick: () => void answer({ kind: 'skip' }) },
              {
                label: 'Abort plan',
                danger: true,
                ref: abortRef,
                onClick: () => {
                  askedAbort.current = true;
                  setConfirmAbort(true);
                },
              },
            ]}
          />
        )}
      </form>
    </PromptDialog>
  );
}
