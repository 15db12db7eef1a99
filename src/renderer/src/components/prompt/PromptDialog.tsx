import { useContext, useEffect, useId, useRef, type ReactNode } from 'react';
import type { PromptAgent } from '../../../../shared/prompts';
import { PromptTakesFocus } from './prompt-focus';
import './prompt-card.css';

interface Props {
  /** A new question takes the focus again. */
  requestId: string;
  className: string;
  labelledBy: string;
  describedBy?: string;
  /** The sub-agent that asks: its label leads the prompt and its name, in the chat and in "Needs you" alike. */
  agent?: PromptAgent | undefined;
  children: ReactNode;
}

/**
 * The frame of every question a run pauses on (docs/contract.md §5: an approval, an escalation, a
 * question from Claude): a role alertdialog named by its heading that takes the focus when the
 * question appears, so keyboard and screen-reader users land on it. A sub-agent's question says
 * whose it is first (docs/contract.md §10 "Its questions").
 */
export function PromptDialog({ requestId, className, labelledBy, describedBy, agent, children }: Props) {
  const agentId = useId();
  const ref = useRef<HTMLElement>(null);
  const takesFocus = useContext(PromptTakesFocus);
  useEffect(() => {
    if (takesFocus) ref.current?.focus();
  }, [requestId, takesFocus]);
  return (
    <section ref={ref} className={className} role="alertdialog" aria-labelledby={agent ? `${agentId} ${labelledBy}` : labelledBy} aria-describedby={describedBy} tabIndex={-1}>
      {agent && (
        <p id={agentId} className="prompt-agent">
          Sub-agent: {agent.title}
        </p>
      )}
      {children}
    </section>
  );
}
