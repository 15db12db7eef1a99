import { type FormEvent, useEffect, useId, useState } from 'react';
import type { SettingsView } from '../../../shared/settings';
import type { ActionResult, ModelInfo } from '../store/types';
import { ModelSelect } from './settings/ModelSelect';

interface Props {
  view: SettingsView;
  models: ModelInfo[];
  onLoadModels(): void;
  onSaveKey(apiKey: string): Promise<ActionResult>;
  onSaveModel(model: string): Promise<ActionResult>;
}

/** First run without a key: ask for one, then the chat appears. */
export function Onboarding({ view, models, onLoadModels, onSaveKey, onSaveModel }: Props) {
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
        <h1>Welcome to Waypoint</h1>
        <p>
          Waypoint talks to Claude with your own Anthropic API key. Create one in the Anthropic Console at{' '}
          <a href="https://console.anthropic.com/settings/keys" target="_blank" rel="noopener noreferrer">
            console.anthropic.com
          </a>{' '}
          (Settings → API keys) and paste it here. It is stored on this computer only, encrypted where the system allows.
        </p>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="field">
          <label htmlFor={`${id}-key`}>API key</label>
          <input id={`${id}-key`} type="password" autoComplete="off" placeholder="sk-ant-…" value={apiKey}
            onChange={(e) => setApiKey(e.target.value)} />
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
