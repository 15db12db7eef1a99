import { type ClipboardEvent, type FormEvent, type KeyboardEvent, type ReactNode, useCallback, useId, useRef, useState } from 'react';
import type { ActionResult } from '../store/types';
import type { PendingAttachment } from '../store/attachments-slice';
import { PendingAttachments } from './attachments/PendingAttachments';
import { Icon } from './icons/Icon';
import './attachments/attachments.css';

interface Props {
  working: boolean;
  error: string | null;
  onSend(text: string): Promise<ActionResult>;
  onStop(): void;
  onEdit(): void;
  /** The chat's draft to start from (the composer is keyed by chat, so it starts afresh per chat). */
  draft?: string;
  /** Every change of the text, the clearing after a send included: the chat's draft. */
  onDraftChange?(text: string): void;
  /** Files waiting to go with the next message, and what adds and removes them. */
  attachments?: readonly PendingAttachment[];
  attachmentAlert?: string | null;
  onAttach?(files: File[]): void;
  onRemoveAttachment?(localId: string): void;
  onDismissAttachmentAlert?(): void;
  /** Shown on the hint's line, at its start (the context meter). */
  footer?: ReactNode;
  /** Another process writes this chat (named so): nothing can be sent from here until it lets go. */
  heldBy?: string;
}

/** A pasted screenshot arrives as "image.png": give it a name that tells two apart. */
function pastedName(file: File, index: number): File {
  if (file.name && file.name !== 'image.png') return file;
  const stamp = new Date().toTimeString().slice(0, 8).replace(/:/g, '-');
  const ext = file.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png';
  return new File([file], `Pasted image ${stamp}${index ? `-${index + 1}` : ''}.${ext}`, { type: file.type });
}

/**
 * The message box. Enter sends, Shift+Enter breaks the line. The text is cleared only once main
 * has accepted it, so a refusal (too long, busy) never loses what was typed.
 */
export function Composer(props: Props) {
  const { working, error, onSend, onStop, onEdit, draft = '', onDraftChange, attachments = [], attachmentAlert, onAttach, footer, heldBy } = props;
  const hintId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const focusBox = useCallback(() => box.current?.focus(), []);
  const [text, setTextState] = useState(draft);
  const [sending, setSending] = useState(false);
  const setText = (next: string) => {
    setTextState(next);
    onDraftChange?.(next);
  };
  const held = heldBy !== undefined;
  const canSend = (text.trim().length > 0 || attachments.length > 0) && !sending && !held;

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

  // A screenshot from the clipboard is a file: it joins the attachments (also while Claude replies).
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (files.length === 0 || !onAttach) return;
    event.preventDefault();
    onAttach(files.map(pastedName));
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
      {attachmentAlert && (
        <div className="composer-error attachment-alert" role="alert">
          <span>{attachmentAlert}</span>
          {props.onDismissAttachmentAlert && (
            <button type="button" className="link-button" onClick={props.onDismissAttachmentAlert}>
              Dismiss
            </button>
          )}
        </div>
      )}
      {props.onRemoveAttachment && <PendingAttachments items={attachments} onRemove={props.onRemoveAttachment} onEmptied={focusBox} />}
      <div className="composer-box">
        {onAttach && (
          <>
            <button type="button" className="composer-attach" aria-label="Attach files" title="Attach files" disabled={held} onClick={() => fileInput.current?.click()}>
              <Icon name="paperclip" size={18} />
            </button>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              onChange={(event) => {
                const files = [...(event.target.files ?? [])];
                event.target.value = '';
                if (files.length) onAttach(files);
              }}
            />
          </>
        )}
        {/* The message box has the focus when a chat opens: typing is what people do first. */}
        <textarea
          ref={box}
          aria-label="Message"
          aria-describedby={hintId}
          placeholder={held ? 'Another process writes this chat' : 'Message Claude…'}
          disabled={held}
          autoFocus
          rows={Math.min(10, Math.max(1, text.split('\n').length))}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (error) onEdit();
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
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
      <div className="composer-footer">
        {footer}
        <p id={hintId} className="composer-hint">
          {held ? `You can’t write here while ${heldBy} writes this chat.` : 'Enter to send, Shift+Enter for a new line'}
        </p>
      </div>
    </form>
  );
}
