import { type FormEvent, useEffect, useId, useState } from 'react';
import type { SettingsView } from '../../../shared/settings';
import type { ActionResult, ModelInfo } from '../store/types';
import { keyStorageText } from './settings/api-key-status';
import { ModelSelect } from './settings/ModelSelect';

interface Props {
  view: SettingsView;
  /** Which shell runs the app: it decides where a typed key is kept, and the screen says so. */
  shell: 'electron' | 'web' | undefined;
  models: ModelInfo[];
  onLoadModels(): void;
  onSaveKey(apiKey: string): Promise<ActionResult>;
  onSaveModel(model: string): Promise<ActionResult>;
}

/** First run without a key: ask for one, then the chat appears. */
export function Onboarding({ view, shell, models, onLoadModels, onSaveKey, onSaveModel }: Props) {
  const id = useId();
  const [apiKey, setApiKey] = useState('');
  const [model, setModel] = useState(view.settings.model);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    onLoadModels();
  }, [onLoadModels]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const keyResult = await onSaveKey(apiKey);
    const result = keyResult.ok ? await onSaveModel(model) : keyResult;
    setSaving(false);
    setError(result.ok ? null : result.message);
  };

  return (
    <div className="onboarding">
      <form className="onboarding-card" onSubmit={submit}>
        {/* h2: the header's chat title is the page's one h1. */}
        <h2>Welcome to Waypoint</h2>
        <p>
          Waypoint talks to Claude with your own Anthropic API key. Create one in the Anthropic Console at{' '}
          <a href="https://console.anthropic.com/settings/keys" target="_blank" rel="noopener noreferrer">
            console.anthropic.com
          </a>{' '}
          (Settings → API keys) and paste it here.
        </p>
        <p id={`${id}-storage`} className="hint">
          {keyStorageText(shell)}
        </p>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="field">
          <label htmlFor={`${id}-key`}>API key</label>
          {/* First run: the key is the one thing to do, so the cursor starts there. */}
          <input id={`${id}-key`} type="password" autoComplete="off" placeholder="sk-ant-…" value={apiKey} autoFocus
            aria-describedby={`${id}-storage`} onChange={(e) => setApiKey(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-model`}>Model</label>
          <ModelSelect id={`${id}-model`} value={model} models={models} onChange={setModel} />
        </div>
        <button type="submit" className="btn btn--primary" disabled={saving || !apiKey.trim()}>
          Save and start
        </button>
      </form>
    </div>
  );
}
