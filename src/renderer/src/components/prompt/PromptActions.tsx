import type { Ref } from 'react';

export interface PromptAction {
  label: string;
  onClick(): void;
  /** Undoes work or ends it ("Abort plan"): drawn as a danger button. */
  danger?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

interface Props {
  /** The row's own layout class (each card spaces its answers its own way). */
  className: string;
  /** The primary answer: submits the card's form, so Enter in its field sends it. */
  submit: string;
  /** The other answers, in order after it. */
  actions: PromptAction[];
  /** While an answer is on its way every answer waits, so none is sent twice. */
  busy: boolean;
  small?: boolean;
}

/** The answers of a card that asks the user (a step's escalation, a plan's budget stop): one row, one look. */
export function PromptActions({ className, submit, actions, busy, small = false }: Props) {
  const size = small ? ' btn--small' : '';
  return (
    <div className={className}>
      <button type="submit" className={`btn btn--primary${size}`} disabled={busy}>
        {submit}
      </button>
      {actions.map((action) => (
        <button key={action.label} ref={action.ref} type="button" className={`btn${action.danger ? ' btn--danger' : ''}${size}`} disabled={busy} onClick={action.onClick}>
          {action.label}
        </button>
      ))}
    </div>
  );
}
