import { type FormEvent, useCallback, useId, useRef, useState } from 'react';
import type { Settings, SettingsView } from '../../../../shared/settings';
import type { ActionResult, ModelInfo } from '../../store/types';
import { apiKeyStatusText } from './api-key-status';
import { mcpJsonOf, parseMcpJson } from '../../store/mcp-json';
import { McpServersSection } from './McpServersSection';
import { ModelSelect } from './ModelSelect';
import { PLANNING_STYLES } from './planning-styles';
import { useFocusTrap } from './use-focus-trap';

interface Props {
  view: SettingsView;
  models: ModelInfo[];
  onSave(patch: Partial<Settings>): Promise<ActionResult>;
  onSaveKey(apiKey: string | null): Promise<ActionResult>;
  onClose(): void;
}

type Draft = Pick<
  Settings,
  'model' | 'agenticMode' | 'planningStyle' | 'autoSkipNonCritical' | 'autoApproveEdits' | 'autoApproveCommands' | 'theme'
> & { maxRetries: string; retryDelayMs: string };

function draftOf(settings: Settings): Draft {
  const { model, agenticMode, planningStyle, autoSkipNonCritical, autoApproveEdits, autoApproveCommands, theme } = settings;
  return {
    model,
    agenticMode,
    planningStyle,
    autoSkipNonCritical,
    autoApproveEdits,
    autoApproveCommands,
    theme,
    maxRetries: String(settings.maxRetries),
    retryDelayMs: String(settings.retryDelayMs),
  };
}

/** Settings as a modal dialog: Save sends a patch to main and shows its verdict; Cancel discards. */
export function SettingsDialog({ view, models, onSave, onSaveKey, onClose }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const [draft, setDraft] = useState(() => draftOf(view.settings));
  const [apiKey, setApiKey] = useState('');
  const [mcpJson, setMcpJson] = useState(() => mcpJsonOf(view.settings.mcpServers));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const close = useCallback(() => onClose(), [onClose]);
  useFocusTrap(ref, close);
  const edit = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const style = PLANNING_STYLES.find((s) => s.value === draft.planningStyle);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // An invalid MCP servers JSON stops the whole save: nothing half-saved.
    const mcp = parseMcpJson(mcpJson);
    if (!mcp.ok) {
      setError(mcp.message);
      return;
    }
    setSaving(true);
    const { maxRetries, retryDelayMs, ...rest } = draft;
    // Numbers go to main as typed; main's validation explains anything out of range.
    const saved = await onSave({ ...rest, maxRetries: Number(maxRetries), retryDelayMs: Number(retryDelayMs), mcpServers: mcp.servers });
    const keySaved = saved.ok && apiKey.trim() ? await onSaveKey(apiKey) : saved;
    setSaving(false);
    if (!keySaved.ok) setError(keySaved.message);
    else onClose();
  };

  const removeKey = async () => {
    const result = await onSaveKey(null);
    setError(result.ok ? null : result.message);
  };

  return (
    <div className="modal-backdrop">
      <div ref={ref} className="modal" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
        {/* noValidate: main validates, and its message is shown in the alert above the fields. */}
        <form onSubmit={submit} noValidate>
          <h2 id={`${id}-title`}>Settings</h2>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="field">
            <label htmlFor={`${id}-key`}>API key</label>
            <input
              id={`${id}-key`}
              type="password"
              autoComplete="off"
              placeholder={view.apiKey.hasApiKey ? '•••••••• (unchanged)' : 'sk-ant-…'}
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
              aria-describedby={`${id}-key-status`}
            />
            <p id={`${id}-key-status`} className="hint">
              {apiKeyStatusText(view.apiKey)}{' '}
              {view.apiKey.source === 'settings' && (
                <button type="button" className="link-button" onClick={() => void removeKey()}>
                  Remove saved key
                </button>
              )}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-model`}>Model</label>
            <ModelSelect id={`${id}-model`} value={draft.model} models={models} onChange={(m) => edit('model', m)} />
          </div>
          <Check id={`${id}-agentic`} label="Agentic mode" checked={draft.agenticMode} onChange={(v) => edit('agenticMode', v)}
            hint="Claude may plan multi-step work with the planning tools." />
          <div className="field">
            <label htmlFor={`${id}-style`}>Planning style</label>
            <select id={`${id}-style`} value={draft.planningStyle} aria-describedby={`${id}-style-hint`}
              onChange={(e) => edit('planningStyle', e.target.value as Draft['planningStyle'])}>
              {PLANNING_STYLES.map((s) => (
                <option key={s.value} value={s.value}>{s.label}</option>
              ))}
            </select>
            <p id={`${id}-style-hint`} className="hint">{style?.description}</p>
          </div>
          <div className="field-row">
            <div className="field">
              <label htmlFor={`${id}-retries`}>Max retries</label>
              <input id={`${id}-retries`} type="number" min={0} max={10} value={draft.maxRetries}
                onChange={(e) => edit('maxRetries', e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-delay`}>Retry delay (ms)</label>
              <input id={`${id}-delay`} type="number" min={0} max={60000} step={100} value={draft.retryDelayMs}
                onChange={(e) => edit('retryDelayMs', e.target.value)} />
            </div>
          </div>
          <Check id={`${id}-autoskip`} label="Skip non-critical failing steps automatically" checked={draft.autoSkipNonCritical}
            onChange={(v) => edit('autoSkipNonCritical', v)} />
          <Check id={`${id}-edits`} label="Auto-approve file edits" checked={draft.autoApproveEdits} onChange={(v) => edit('autoApproveEdits', v)} />
          <Check id={`${id}-cmds`} label="Auto-approve commands" checked={draft.autoApproveCommands} onChange={(v) => edit('autoApproveCommands', v)} />
          <div className="field">
            <label htmlFor={`${id}-theme`}>Theme</label>
            <select id={`${id}-theme`} value={draft.theme} onChange={(e) => edit('theme', e.target.value as Draft['theme'])}>
              <option value="system">Match system</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </div>
          <McpServersSection id={id} json={mcpJson} onChange={setMcpJson} />
          <div className="modal-actions">
            <button type="button" className="btn" onClick={onClose}>Cancel</button>
            <button type="submit" className="btn btn--primary" disabled={saving}>Save</button>
          </div>
        </form>
      </div>
    </div>
  );
}

function Check(props: { id: string; label: string; checked: boolean; onChange(value: boolean): void; hint?: string }) {
  return (
    <div className="field field--check">
      <input id={props.id} type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined} />
      <label htmlFor={props.id}>{props.label}</label>
      {props.hint && <p id={`${props.id}-hint`} className="hint">{props.hint}</p>}
    </div>
  );
}
