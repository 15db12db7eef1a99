import { type FormEvent, type KeyboardEvent, useState } from 'react';
import type { ActionResult } from '../store/types';

interface Props {
  working: boolean;
  error: string | null;
  onSend(text: string): Promise<ActionResult>;
  onStop(): void;
  onEdit(): void;
}

/**
 * The message box. Enter sends, Shift+Enter breaks the line. The text is cleared only once main
 * has accepted it, so a refusal (too long, busy) never loses what was typed.
 */
export function Composer({ working, error, onSend, onStop, onEdit }: Props) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const canSend = text.trim().length > 0 && !sending;

  const send = async () => {
    if (!canSend) return;
    setSending(true);
    const result = await onSend(text);
    setSending(false);
    if (result.ok) setText('');
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  return (
    <form className="composer" onSubmit={onSubmit}>
      {error && (
        <p className="composer-error" role="alert">
          {error}
        </p>
      )}
      <div className="composer-box">
        <textarea
          aria-label="Message"
          placeholder="Message Claude…  (Enter to send, Shift+Enter for a new line)"
          rows={Math.min(10, Math.max(1, text.split('\n').length))}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (error) onEdit();
          }}
          onKeyDown={onKeyDown}
        />
        <div className="composer-actions">
          {working && (
            <button type="button" className="btn btn--stop" onClick={onStop} aria-keyshortcuts="Escape" title="Stop (Escape)">
              Stop
            </button>
          )}
          <button type="submit" className="btn btn--primary" disabled={!canSend}>
            Send
          </button>
        </div>
      </div>
    </form>
  );
}
