import { useId, useState, type KeyboardEvent } from 'react';
import { ANY_CALL, COMMAND_TOOL, describeRule, FILE_TOOLS, type RuleEffect } from '../../../../shared/approval-rules';
import { useWaypoint } from '../../store/store-context';
import { checkRule, withDraft, type RuleDraft } from './rule-drafts';
import { mcpToolChoices, ruleTarget, type RuleTarget } from './rule-targets';
import './ApprovalRulesSection.css';

const OWN_TOOLS = [COMMAND_TOOL, ...FILE_TOOLS];

interface Props {
  /** Rules added here, held by the dialog until its Save (rule-drafts.ts). */
  drafts: readonly RuleDraft[];
  onDrafts(next: RuleDraft[]): void;
}

/**
 * Settings → "Approval rules": the saved rules, each naming its tool and its command or path,
 * with "Remove rule"; and a rule added by hand ("Never allow" refuses a call without asking).
 * A rule added here applies on the dialog's Save (Cancel drops it); "Remove rule" on a saved
 * rule takes effect at once, on one not saved yet it just drops it.
 */
export function ApprovalRulesSection({ drafts, onDrafts }: Props) {
  const id = useId();
  const rules = useWaypoint((s) => s.settingsView?.settings.approvalRules ?? []);
  const removeApprovalRule = useWaypoint((s) => s.removeApprovalRule);
  const mcpServers = useWaypoint((s) => s.mcpServers);
  const mcpChoices = mcpToolChoices(mcpServers);
  const [choice, setChoice] = useState(COMMAND_TOOL);
  // An MCP tool's rule covers every call of it: there is no command or path to name.
  const target: RuleTarget = ruleTarget(choice);
  const tool = target.tool;
  const [pattern, setPattern] = useState('');
  const [effect, setEffect] = useState<RuleEffect>('allow');
  const [nextKey, setNextKey] = useState(1);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const add = () => {
    // What the last action said goes first: a refusal never sits beside an old "Added".
    setStatus('');
    const checked = checkRule(target.server ? { tool, server: target.server, pattern: ANY_CALL, effect } : { tool, pattern, effect });
    if (!checked.ok) return setProblem(checked.message);
    setProblem(null);
    onDrafts(withDraft(drafts, { key: `new-${nextKey}`, fields: checked.fields }));
    setNextKey((n) => n + 1);
    setStatus(`Added: ${describeRule(checked.fields)}. It applies when you press Save.`);
    setPattern('');
  };
  const remove = async (ruleId: string, text: string) => {
    setStatus('');
    const result = await removeApprovalRule(ruleId);
    if (!result.ok) return setProblem(result.message);
    setProblem(null);
    setStatus(`Removed: ${text}.`);
  };
  const drop = (key: string, text: string) => {
    onDrafts(drafts.filter((d) => d.key !== key));
    setProblem(null);
    setStatus(`Removed: ${text} (it was not saved).`);
  };
  // The dialog's form must not submit on Enter here: Enter adds the rule.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };

  return (
    <fieldset className="field rules-section">
      <legend>Approval rules</legend>
      <p className="hint" id={`${id}-hint`}>
        Calls a rule covers run without asking (Always allow) or are refused without asking (Never allow). “Always approve” on an approval adds
        one; “Approve for this chat” keeps its rule with that chat only. A run_command rule is one exact command line; a file rule is a path in
        the workspace (** for any); an MCP tool's rule (from a running server) covers every call of that tool.
      </p>
      {rules.length || drafts.length ? (
        <ul className="rules-list" aria-label="Approval rules">
          {rules.map((rule) => {
            const text = describeRule(rule);
            return (
              <li key={rule.id} className={`rule rule--${rule.effect}`}>
                <span className="rule-text" id={`${id}-rule-${rule.id}`}>
                  {text}
                </span>
                {/* Every rule's button has the same fixed name; the description says which rule it removes. */}
                <button type="button" className="btn btn--small" aria-describedby={`${id}-rule-${rule.id}`} onClick={() => void remove(rule.id, text)}>
                  Remove rule
                </button>
              </li>
            );
          })}
          {drafts.map(({ key, fields }) => {
            const text = describeRule(fields);
            return (
              <li key={key} className={`rule rule--${fields.effect} rule--unsaved`}>
                <span className="rule-text" id={`${id}-rule-${key}`}>
                  {text} <span className="muted">(not saved yet: Save applies it)</span>
                </span>
                <button type="button" className="btn btn--small" aria-describedby={`${id}-rule-${key}`} onClick={() => drop(key, text)}>
                  Remove rule
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted rules-empty">No saved rules: every risky call asks (unless auto-approved above).</p>
      )}
      <div className="rules-add" role="group" aria-label="Add a rule">
        <div className="rules-add-field">
          <label htmlFor={`${id}-tool`}>Tool</label>
          <select
            id={`${id}-tool`}
            value={choice}
            onChange={(e) => {
              setChoice(e.target.value);
              setProblem(null);
            }}
          >
            <optgroup label="Waypoint">
              {OWN_TOOLS.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </optgroup>
            {mcpChoices.map((group) => (
              <optgroup key={group.server} label={`MCP server ${group.server}`}>
                {group.tools.map((choiceOf) => (
                  <option key={choiceOf.value} value={choiceOf.value}>
                    {choiceOf.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        {target.server ? (
          <p className="rules-add-field rules-add-pattern muted">Every call of this tool</p>
        ) : (
          <div className="rules-add-field rules-add-pattern">
            <label htmlFor={`${id}-pattern`}>Command or path</label>
            <input
              id={`${id}-pattern`}
              value={pattern}
              placeholder={tool === COMMAND_TOOL ? 'npm test' : 'src/** or **'}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : `${id}-hint`}
              onChange={(e) => {
                setPattern(e.target.value);
                setProblem(null);
              }}
              onKeyDown={onKeyDown}
            />
          </div>
        )}
        <div className="rules-add-field">
          <label htmlFor={`${id}-effect`}>Decision</label>
          <select id={`${id}-effect`} value={effect} onChange={(e) => setEffect(e.target.value as RuleEffect)}>
            <option value="allow">Always allow</option>
            <option value="deny">Never allow</option>
          </select>
        </div>
        <button type="button" className="btn btn--small" onClick={add}>
          Add rule
        </button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="field-error" role="alert">
          {problem}
        </p>
      )}
      <p className="sr-only" role="status">
        {status}
      </p>
    </fieldset>
  );
}
