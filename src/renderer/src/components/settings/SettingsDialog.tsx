import { type FormEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Settings, SettingsView } from '../../../../shared/settings';
import { ThinkingSettings } from './ThinkingSettings';
import { Check } from './Check';
import type { ActionResult, ModelInfo } from '../../store/types';
import { apiKeyStatusText } from './api-key-status';
import { mcpJsonOf, parseMcpJson } from '../../store/mcp-json';
import { McpServersSection } from './McpServersSection';
import { SkillsSection } from './SkillsSection';
import { ApprovalRulesSection } from './ApprovalRulesSection';
import { saveDrafts, type RuleDraft } from './rule-drafts';
import { ModelSelect } from './ModelSelect';
import { PLANNING_STYLES } from './planning-styles';
import { useFocusTrap } from './use-focus-trap';
import { useWaypoint } from '../../store/store-context';
import { NumberField } from './NumberField';
import { BudgetFields, budgetDraftOf, parseBudgetDraft, type BudgetDraft, type BudgetErrors } from './BudgetFields';
import { NotificationsCheck } from './NotificationsCheck';
import { WorktreesSection } from './WorktreesSection';
import { modelLimitsText } from './model-limits-text';
import { fieldOfRefusal, type FieldErrors, NUMBER_FIELDS, type NumberFieldKey, type NumberLimits, numberFieldError, numberFieldErrors, thinkingBudgetLimits } from './settings-validation';

interface Props {
  view: SettingsView;
  models: ModelInfo[];
  onSave(patch: Partial<Settings>): Promise<ActionResult>;
  onSaveKey(apiKey: string | null): Promise<ActionResult>;
  onClose(): void;
}

type Draft = Pick<
  Settings,
  'model' | 'agenticMode' | 'planningStyle' | 'planFirst' | 'autoSkipNonCritical' | 'autoApproveEdits' | 'autoApproveCommands' | 'theme' | 'extendedThinking' | 'thinkingEffort' | 'notifications' | 'worktrees'
  | 'instructionsForEveryChat' | 'webSearch' | 'skillsTurnedOff'
> & { maxRetries: string; retryDelayMs: string; thinkingBudgetTokens: string; maxModelTurns: string; runsAtOnce: string; goalChecks: string; subAgentDepth: string; subAgentsAtOnce: string; webSearchMaxUses: string } & BudgetDraft;

function draftOf(settings: Settings): Draft {
  const { model, agenticMode, planningStyle, planFirst, autoSkipNonCritical, autoApproveEdits, autoApproveCommands, theme } = settings;
  return {
    model,
    agenticMode,
    planningStyle,
    planFirst,
    autoSkipNonCritical,
    autoApproveEdits,
    autoApproveCommands,
    theme,
    maxRetries: String(settings.maxRetries),
    retryDelayMs: String(settings.retryDelayMs),
    extendedThinking: settings.extendedThinking,
    thinkingEffort: settings.thinkingEffort,
    thinkingBudgetTokens: String(settings.thinkingBudgetTokens),
    maxModelTurns: String(settings.maxModelTurns),
    runsAtOnce: String(settings.runsAtOnce),
    goalChecks: String(settings.goalChecks),
    subAgentDepth: String(settings.subAgentDepth),
    subAgentsAtOnce: String(settings.subAgentsAtOnce),
    notifications: settings.notifications,
    instructionsForEveryChat: settings.instructionsForEveryChat,
    skillsTurnedOff: settings.skillsTurnedOff,
    ...budgetDraftOf(settings),
    worktrees: settings.worktrees,
    webSearch: settings.webSearch,
    webSearchMaxUses: String(settings.webSearchMaxUses),
  };
}

/**
 * Settings as a modal dialog: Save sends a patch to main and shows its verdict; Cancel discards.
 * Each field says what is wrong with it, in words, right beside it, and Save moves the focus
 * (and so the view) to the first such field: Save never seems to do nothing. The theme shows at
 * once while it is picked, and goes back on Cancel.
 */
export function SettingsDialog({ view, models, onSave, onSaveKey, onClose }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const [draft, setDraft] = useState(() => draftOf(view.settings));
  const [apiKey, setApiKey] = useState('');
  const [mcpJson, setMcpJson] = useState(() => mcpJsonOf(view.settings.mcpServers));
  // What the JSON said when the dialog opened: left as it was, Save leaves the servers alone, so a
  // name saved before the name rule (still loaded, its tools sanitised) never blocks other settings.
  const [openedMcpJson] = useState(mcpJson);
  const mcpParsed = useMemo(() => parseMcpJson(mcpJson), [mcpJson]);
  const [error, setError] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [budgetErrors, setBudgetErrors] = useState<BudgetErrors>({});
  const budgetRefs = { planBudgetUsd: useRef<HTMLInputElement>(null), planBudgetMinutes: useRef<HTMLInputElement>(null) };
  // Approval rules added here wait for Save like the fields above (rule-drafts.ts).
  const [ruleDrafts, setRuleDrafts] = useState<RuleDraft[]>([]);
  const addApprovalRule = useWaypoint((s) => s.addApprovalRule);
  const fieldRefs = {
    maxRetries: useRef<HTMLInputElement>(null),
    retryDelayMs: useRef<HTMLInputElement>(null),
    thinkingBudgetTokens: useRef<HTMLInputElement>(null),
    maxModelTurns: useRef<HTMLInputElement>(null),
    runsAtOnce: useRef<HTMLInputElement>(null),
    goalChecks: useRef<HTMLInputElement>(null),
    subAgentDepth: useRef<HTMLInputElement>(null),
    subAgentsAtOnce: useRef<HTMLInputElement>(null),
    webSearchMaxUses: useRef<HTMLInputElement>(null),
    mcpServers: useRef<HTMLTextAreaElement>(null),
  };
  const generalError = useRef<HTMLParagraphElement>(null);
  const previewTheme = useWaypoint((s) => s.previewTheme);
  // The desktop app always notifies (from main); the browser's notifications are the user's choice.
  const shell = useWaypoint((s) => s.appInfo?.shell);
  const close = useCallback(() => onClose(), [onClose]);
  useFocusTrap(ref, close);
  // The preview ends with the dialog: after Save the saved theme shows, after Cancel the old one.
  useEffect(() => () => previewTheme(null), [previewTheme]);
  useEffect(() => generalError.current?.scrollIntoView({ block: 'nearest' }), [error]);
  const edit = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const style = PLANNING_STYLES.find((s) => s.value === draft.planningStyle);
  const chosenModel = models.find((m) => m.id === draft.model);
  // The budget's ceiling is the chosen model's, so a budget it would lower is refused here instead.
  // Held only while the budget field is shown (a model choosing its own amount ignores it).
  const support = chosenModel?.thinking;
  const budgetUsed = draft.extendedThinking && (!support || (!support.adaptive && support.enabled));
  const limitsOf: Partial<Record<NumberFieldKey, NumberLimits>> = budgetUsed ? { thinkingBudgetTokens: thinkingBudgetLimits(chosenModel) } : {};

  const setFieldError = (key: keyof FieldErrors, message: string | null) =>
    setErrors((held) => {
      const { [key]: _dropped, ...rest } = held;
      return message ? { ...rest, [key]: message } : rest;
    });
  const editNumber = (key: NumberFieldKey, value: string) => {
    edit(key, value);
    // Errors appear on Save (one on blur would move Save under the pointer mid-click); once
    // shown, an error follows the typing and goes as soon as the value is right.
    if (errors[key]) setFieldError(key, numberFieldError(limitsOf[key] ?? NUMBER_FIELDS[key], value));
  };
  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    const first = (['thinkingBudgetTokens', 'maxModelTurns', 'runsAtOnce', 'goalChecks', 'subAgentDepth', 'subAgentsAtOnce', 'webSearchMaxUses', 'maxRetries', 'retryDelayMs', 'mcpServers'] as const).find((key) => found[key]);
    if (first) {
      fieldRefs[first].current?.focus(); // focus brings the field into view; its error comes next render
      revealError.current = true;
    }
  };
  // The error under the focused field is drawn after the focus scrolled to the field: bring it
  // into view too (the dialog's Save bar stays at its foot and would otherwise hide it).
  const revealError = useRef(false);
  useEffect(() => {
    if (!revealError.current) return;
    revealError.current = false;
    const described = document.activeElement?.getAttribute('aria-describedby')?.split(' ') ?? [];
    const shown = described.map((id) => document.getElementById(id)).filter((el) => el?.classList.contains('field-error'));
    shown.at(-1)?.scrollIntoView({ block: 'nearest' });
  }, [errors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    // Anything invalid stops the whole save: nothing half-saved.
    const mcpUntouched = mcpJson === openedMcpJson;
    const mcp = mcpUntouched ? ({ ok: true, servers: undefined } as const) : mcpParsed;
    const found = numberFieldErrors(draft, limitsOf);
    if (!mcp.ok) found.mcpServers = mcp.message;
    if (!mcp.ok || Object.keys(found).length > 0) return showErrors(found);
    setErrors({});
    const budget = parseBudgetDraft(draft);
    setBudgetErrors(budget.ok ? {} : budget.errors);
    if (!budget.ok) return budgetRefs[budget.errors.planBudgetUsd ? 'planBudgetUsd' : 'planBudgetMinutes'].current?.focus();
    setSaving(true);
    const { maxRetries, retryDelayMs, thinkingBudgetTokens, maxModelTurns, runsAtOnce, goalChecks, subAgentDepth, subAgentsAtOnce, webSearchMaxUses, planBudgetUsd: _usd, planBudgetMinutes: _minutes, ...rest } = draft;
    const saved = await onSave({
      ...rest,
      ...budget.patch,
      maxRetries: Number(maxRetries),
      retryDelayMs: Number(retryDelayMs),
      thinkingBudgetTokens: Number(thinkingBudgetTokens),
      maxModelTurns: Number(maxModelTurns),
      runsAtOnce: Number(runsAtOnce),
      goalChecks: Number(goalChecks),
      subAgentDepth: Number(subAgentDepth),
      subAgentsAtOnce: Number(subAgentsAtOnce),
      webSearchMaxUses: Number(webSearchMaxUses),
      ...(mcp.servers ? { mcpServers: mcp.servers } : {}),
    });
    const rules = saved.ok ? await saveDrafts(ruleDrafts, addApprovalRule) : { left: ruleDrafts, result: saved };
    setRuleDrafts(rules.left);
    const keySaved = rules.result.ok && apiKey.trim() ? await onSaveKey(apiKey) : rules.result;
    setSaving(false);
    if (keySaved.ok) return onClose();
    // Main's own check refused it (it validates too): next to the field when it names one.
    const field = saved.ok ? null : fieldOfRefusal(keySaved.message);
    if (field) showErrors({ [field]: keySaved.message });
    else setError(keySaved.message);
  };

  // The MCP server form and Remove save at once (the server's state then shows in the list), on
  // top of the JSON as it stands: the JSON then shows what was saved, so the two never disagree.
  const saveMcpServers = async (servers: Settings['mcpServers']): Promise<ActionResult> => {
    const saved = await onSave({ mcpServers: servers });
    if (saved.ok) {
      setMcpJson(mcpJsonOf(servers));
      setFieldError('mcpServers', null);
    }
    return saved;
  };

  const removeKey = async () => {
    const result = await onSaveKey(null);
    setError(result.ok ? null : result.message);
  };

  return (
    <div className="modal-backdrop">
      <div ref={ref} className="modal" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
        {/* noValidate: each field shows its own message in words (the browser's bubbles can't be styled or read well). */}
        <form onSubmit={submit} noValidate>
          <h2 id={`${id}-title`}>Settings</h2>
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
            <ModelSelect id={`${id}-model`} value={draft.model} models={models} onChange={(m) => edit('model', m)} describedBy={`${id}-model-hint`} />
            <p id={`${id}-model-hint`} className="hint">{modelLimitsText(models.find((m) => m.id === draft.model))}</p>
          </div>
          <ThinkingSettings
            id={`${id}-thinking`}
            model={chosenModel}
            modelId={draft.model}
            on={draft.extendedThinking}
            effort={draft.thinkingEffort}
            budget={draft.thinkingBudgetTokens}
            budgetError={errors.thinkingBudgetTokens}
            budgetRef={fieldRefs.thinkingBudgetTokens}
            onToggle={(v) => edit('extendedThinking', v)}
            onEffort={(v) => edit('thinkingEffort', v)}
            onBudget={(v) => editNumber('thinkingBudgetTokens', v)}
          />
          <NumberField id={`${id}-turns`} label="Max model turns" limits={NUMBER_FIELDS.maxModelTurns} value={draft.maxModelTurns}
            error={errors.maxModelTurns} inputRef={fieldRefs.maxModelTurns} onChange={(v) => editNumber('maxModelTurns', v)}
            hint="How many times Claude may call tools and go on for one message before Waypoint pauses it." />
          <NumberField id={`${id}-runs`} label="Runs at once" limits={NUMBER_FIELDS.runsAtOnce} value={draft.runsAtOnce}
            error={errors.runsAtOnce} inputRef={fieldRefs.runsAtOnce} onChange={(v) => editNumber('runsAtOnce', v)}
            hint="How many chats Claude works in at the same time; a message sent while that many work waits as Queued." />
          <NumberField id={`${id}-goal-checks`} label="Goal checks" limits={NUMBER_FIELDS.goalChecks} value={draft.goalChecks}
            error={errors.goalChecks} inputRef={fieldRefs.goalChecks} onChange={(v) => editNumber('goalChecks', v)}
            hint="How many times an independent check may judge whether a completed plan met its goal (each costs one request); 0 turns it off." />
          <NumberField id={`${id}-subagent-depth`} label="Sub-agent depth" limits={NUMBER_FIELDS.subAgentDepth} value={draft.subAgentDepth}
            error={errors.subAgentDepth} inputRef={fieldRefs.subAgentDepth} onChange={(v) => editNumber('subAgentDepth', v)}
            hint="How deep Claude may delegate: 1 lets a chat's Claude start sub-agents, 2 lets those start their own, and so on." />
          <NumberField id={`${id}-subagents-at-once`} label="Sub-agents at once" limits={NUMBER_FIELDS.subAgentsAtOnce} value={draft.subAgentsAtOnce}
            error={errors.subAgentsAtOnce} inputRef={fieldRefs.subAgentsAtOnce} onChange={(v) => editNumber('subAgentsAtOnce', v)}
            hint="How many sub-agents of one chat work at the same time; the rest wait their turn." />
          <Check id={`${id}-web-search`} label="Web search" checked={draft.webSearch} onChange={(v) => edit('webSearch', v)}
            hint="Claude may search the web (the Anthropic API runs the searches): $10 per 1,000 searches, on top of tokens, counted in the chat's cost." />
          <NumberField id={`${id}-web-searches`} label="Web searches per request" limits={NUMBER_FIELDS.webSearchMaxUses} value={draft.webSearchMaxUses}
            error={errors.webSearchMaxUses} inputRef={fieldRefs.webSearchMaxUses} onChange={(v) => editNumber('webSearchMaxUses', v)}
            hint="How many searches Claude may make in one request when Web search is on." />
          <BudgetFields id={id} draft={draft} errors={budgetErrors} usdRef={budgetRefs.planBudgetUsd} minutesRef={budgetRefs.planBudgetMinutes}
            onChange={(key, value) => edit(key, value)} />
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
          <Check id={`${id}-plan-first`} label="Plan first" checked={draft.planFirst} onChange={(v) => edit('planFirst', v)}
            hint="Claude reads and proposes a plan; nothing changes until you approve it. Applies to new chats and to this chat while it has no plan." />
          <div className="field-row">
            <NumberField id={`${id}-retries`} label="Max retries" limits={NUMBER_FIELDS.maxRetries} value={draft.maxRetries}
              error={errors.maxRetries} inputRef={fieldRefs.maxRetries} onChange={(v) => editNumber('maxRetries', v)} />
            <NumberField id={`${id}-delay`} label="Retry delay (ms)" limits={NUMBER_FIELDS.retryDelayMs} value={draft.retryDelayMs}
              error={errors.retryDelayMs} inputRef={fieldRefs.retryDelayMs} onChange={(v) => editNumber('retryDelayMs', v)} />
          </div>
          <Check id={`${id}-autoskip`} label="Skip non-critical failing steps automatically" checked={draft.autoSkipNonCritical}
            onChange={(v) => edit('autoSkipNonCritical', v)} />
          <Check id={`${id}-edits`} label="Auto-approve file edits" checked={draft.autoApproveEdits} onChange={(v) => edit('autoApproveEdits', v)} />
          <Check id={`${id}-cmds`} label="Auto-approve commands" checked={draft.autoApproveCommands} onChange={(v) => edit('autoApproveCommands', v)} />
          <WorktreesSection id={`${id}-worktrees`} checked={draft.worktrees} onChange={(v) => edit('worktrees', v)} />
          <ApprovalRulesSection drafts={ruleDrafts} onDrafts={setRuleDrafts} />
          {shell === 'web' && <NotificationsCheck id={`${id}-notifications`} checked={draft.notifications} onChange={(v) => edit('notifications', v)} />}
          <div className="field">
            <label htmlFor={`${id}-theme`}>Theme</label>
            <select id={`${id}-theme`} value={draft.theme} aria-describedby={`${id}-theme-hint`}
              onChange={(e) => {
                const theme = e.target.value as Draft['theme'];
                edit('theme', theme);
                previewTheme(theme);
              }}>
              <option value="system">Match system</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
            <p id={`${id}-theme-hint`} className="hint">Shown at once; Save keeps it, Cancel goes back.</p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-every-chat`}>Instructions for every chat</label>
            <textarea id={`${id}-every-chat`} rows={4} maxLength={40_000} value={draft.instructionsForEveryChat}
              aria-describedby={`${id}-every-chat-hint`} onChange={(e) => edit('instructionsForEveryChat', e.target.value)} />
            <p id={`${id}-every-chat-hint`} className="hint">
              Claude reads these before every message of every chat, with the workspace's AGENTS.md and CLAUDE.md (the header's "Instructions" lists them).
            </p>
          </div>
          <SkillsSection id={`${id}-skills`} turnedOff={draft.skillsTurnedOff} onChange={(off) => edit('skillsTurnedOff', off)} />
          <McpServersSection id={id} json={mcpJson} error={errors.mcpServers} textareaRef={fieldRefs.mcpServers}
            servers={mcpParsed.ok ? mcpParsed.servers : null} jsonProblem={mcpParsed.ok ? undefined : mcpParsed.message} onSaveServers={saveMcpServers}
            onChange={(json) => {
              setMcpJson(json);
              if (errors.mcpServers) setFieldError('mcpServers', null);
            }} />
          {error && (
            <p ref={generalError} className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="modal-actions">
            <button type="button" className="btn" onClick={onClose}>Cancel</button>
            <button type="submit" className="btn btn--primary" disabled={saving}>Save</button>
          </div>
        </form>
      </div>
    </div>
  );
}
