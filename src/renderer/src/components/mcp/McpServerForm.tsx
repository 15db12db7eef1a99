import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type { McpServers } from '../../../../shared/settings';
import type { ActionResult } from '../../store/types';
import { applyDraft, draftOfServer, EMPTY_DRAFT, type DraftErrors, type DraftField, type McpServerDraft } from './mcp-server-draft';
import './McpServerForm.css';

interface Props {
  /** Settings' servers as the JSON editor holds them; null while that JSON is not valid. */
  servers: McpServers | null;
  /** Why the JSON is not valid, when it is not: the form saves on top of it, so it waits. */
  jsonProblem?: string;
  /** The server being edited, or null to add one. */
  editing: string | null;
  onSave(servers: McpServers): Promise<ActionResult>;
  onClose(): void;
}

const FIELD_ORDER: DraftField[] = ['name', 'command', 'env', 'url'];

/**
 * "Add MCP server" / "Edit server NAME": one server as fields instead of JSON. It sits inside
 * Settings' own form, so it is a group, not a form: Enter in one of its boxes saves the server
 * (not the whole dialog). "Save server" saves at once through setSettings, like "Restart", so
 * the server's state shows in the list below; the dialog's Save is not needed for it.
 */
export function McpServerForm({ servers, jsonProblem, editing, onSave, onClose }: Props) {
  const id = useId();
  const [draft, setDraft] = useState<McpServerDraft>(() => (editing !== null && servers?.[editing] ? draftOfServer(editing, servers[editing]) : EMPTY_DRAFT));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const refs = {
    name: useRef<HTMLInputElement>(null),
    command: useRef<HTMLInputElement>(null),
    env: useRef<HTMLTextAreaElement>(null),
    url: useRef<HTMLInputElement>(null),
  };
  useEffect(() => refs.name.current?.focus(), []); // eslint-disable-line react-hooks/exhaustive-deps -- once, when the form opens
  // Escape closes this form only. Settings' focus trap listens natively on the dialog, which a
  // React handler runs after, so this one is native too and stops the key on its way up.
  const group = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const element = group.current;
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      close.current();
    };
    element?.addEventListener('keydown', onEscape);
    return () => element?.removeEventListener('keydown', onEscape);
  }, []);

  const edit = <K extends keyof McpServerDraft>(key: K, value: McpServerDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    // A shown error goes as soon as its field is edited; the next Save checks again.
    if (key in errors) setErrors(({ [key as DraftField]: _gone, ...rest }) => rest);
  };

  const save = async () => {
    if (saving) return;
    setProblem(null);
    if (!servers) return setProblem(`Fix the MCP servers JSON first: ${jsonProblem ?? 'it is not valid.'}`);
    const result = applyDraft(draft, servers, editing);
    if (!result.ok) {
      setErrors(result.errors);
      const first = FIELD_ORDER.find((field) => result.errors[field]);
      if (first) refs[first].current?.focus();
      return;
    }
    setErrors({});
    setSaving(true);
    const saved = await onSave(result.servers);
    setSaving(false);
    if (saved.ok) onClose();
    else setProblem(saved.message);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && event.target instanceof HTMLInputElement && event.target.type !== 'radio') {
      event.preventDefault();
      void save();
    }
  };

  const title = editing === null ? 'Add MCP server' : `Edit server ${editing}`;
  return (
    <div ref={group} className="mcp-form" role="group" aria-labelledby={`${id}-title`} onKeyDown={onKeyDown}>
      <h3 id={`${id}-title`} className="mcp-form-title">{title}</h3>
      <p className="hint">Save server saves it and starts it at once; the dialog's Cancel does not undo it.</p>
      <TextField id={`${id}-name`} label="Server name" error={errors.name} hint="Letters, digits, _ and -: its tools are called NAME__tool.">
        {(a11y) => <input ref={refs.name} {...a11y} type="text" autoComplete="off" spellCheck={false} value={draft.name} onChange={(e) => edit('name', e.target.value)} />}
      </TextField>
      <fieldset className="mcp-form-kind">
        <legend>Server kind</legend>
        <label>
          <input type="radio" name={`${id}-kind`} checked={draft.kind === 'command'} onChange={() => edit('kind', 'command')} /> Local command
        </label>
        <label>
          <input type="radio" name={`${id}-kind`} checked={draft.kind === 'url'} onChange={() => edit('kind', 'url')} /> Remote URL
        </label>
      </fieldset>
      {draft.kind === 'command' ? (
        <>
          <TextField id={`${id}-command`} label="Command" error={errors.command} hint="The program that starts the server, e.g. npx or uvx.">
            {(a11y) => <input ref={refs.command} {...a11y} type="text" autoComplete="off" spellCheck={false} value={draft.command} onChange={(e) => edit('command', e.target.value)} />}
          </TextField>
          <TextField id={`${id}-args`} label="Arguments" hint="One per line, exactly as typed: spaces inside a line stay in that argument.">
            {(a11y) => <textarea {...a11y} rows={Math.min(8, Math.max(2, draft.args.split('\n').length))} spellCheck={false} value={draft.args} onChange={(e) => edit('args', e.target.value)} />}
          </TextField>
          <TextField id={`${id}-env`} label="Environment" error={errors.env} hint="One NAME=value per line, given to this server only.">
            {(a11y) => <textarea ref={refs.env} {...a11y} rows={Math.min(8, Math.max(2, draft.env.split('\n').length))} spellCheck={false} value={draft.env} onChange={(e) => edit('env', e.target.value)} />}
          </TextField>
        </>
      ) : (
        <TextField id={`${id}-url`} label="URL" error={errors.url} hint="The server's streamable HTTP address, http:// or https://.">
          {(a11y) => <input ref={refs.url} {...a11y} type="url" autoComplete="off" spellCheck={false} value={draft.url} onChange={(e) => edit('url', e.target.value)} />}
        </TextField>
      )}
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <div className="mcp-form-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="btn btn--primary" disabled={saving} onClick={() => void save()}>
          Save server
        </button>
      </div>
    </div>
  );
}

interface FieldA11y {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string;
}

/** A labelled box with its hint and, when refused, its error in words right under it. */
function TextField({ id, label, hint, error, children }: { id: string; label: string; hint: string; error?: string | undefined; children(a11y: FieldA11y): ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-hint ${id}-error` : `${id}-hint` })}
      <p id={`${id}-hint`} className="hint">{hint}</p>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
