import { useContext, useEffect, useRef, type ReactNode } from 'react';
import { PromptTakesFocus } from './prompt-focus';
import './prompt-card.css';

interface Props {
  /** A new question takes the focus again. */
  requestId: string;
  className: string;
  labelledBy: string;
  describedBy?: string;
  children: ReactNode;
}

/**
 * The frame of every question a run pauses on (docs/contract.md §5: an approval, an escalation, a
 * question from Claude): a role alertdialog named by its heading that takes the focus when the
 * question appears, so keyboard and screen-reader users land on it.
 */
export function PromptDialog({ requestId, className, labelledBy, describedBy, children }: Props) {
  const ref = useRef<HTMLElement>(null);
  const takesFocus = useContext(PromptTakesFocus);
  useEffect(() => {
    if (takesFocus) ref.current?.focus();
  }, [requestId, takesFocus]);
  return (
    <section ref={ref} className={className} role="alertdialog" aria-labelledby={labelledBy} aria-describedby={describedBy} tabIndex={-1}>
      {children}
    </section>
  );
}
