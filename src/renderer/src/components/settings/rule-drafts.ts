import { ApprovalRuleFields } from '../../../../shared/approval-rules';
import type { ActionResult } from '../../store/types';

/**
 * Approval rules added in the Settings dialog are held there until Save, like every other
 * setting, so Cancel drops them and nothing reaches main (docs/contract.md, Approval scopes).
 * "Remove rule" on a saved rule still takes effect at once; on a held one it only drops it.
 */
export interface RuleDraft {
  /** The dialog's own key: the rule has no id until main saves it. */
  key: string;
  fields: ApprovalRuleFields;
}

export type RuleCheck = { ok: true; fields: ApprovalRuleFields } | { ok: false; message: string };

/**
 * Checks a rule with main's own schema, so a rule Save would refuse is refused when it is added.
 * Worded once: each problem's sentence, no field path (the field is right beside the message).
 */
export function checkRule(fields: unknown): RuleCheck {
  const parsed = ApprovalRuleFields.safeParse(fields);
  if (parsed.success) return { ok: true, fields: { ...parsed.data, pattern: parsed.data.pattern.trim() } };
  const sentences = [...new Set(parsed.error.issues.map((issue) => issue.message.trim()))];
  return { ok: false, message: `Rule not added: ${sentences.join(' ')}` };
}

/** A held rule for the same tool and pattern as a new one gives way to it: the newest word counts, as in main's store. */
export function withDraft(drafts: readonly RuleDraft[], draft: RuleDraft): RuleDraft[] {
  const { tool, server, pattern } = draft.fields;
  return [...drafts.filter((d) => !(d.fields.tool === tool && d.fields.server === server && d.fields.pattern === pattern)), draft];
}

/**
 * Save: the held rules go to main one call each, in order. One refused stops there; it and those
 * after it stay held (those sent drop out), so Save again sends just what is left.
 */
export async function saveDrafts(drafts: readonly RuleDraft[], add: (fields: ApprovalRuleFields) => Promise<ActionResult>): Promise<{ left: RuleDraft[]; result: ActionResult }> {
  for (let i = 0; i < drafts.length; i++) {
    const result = await add(drafts[i]!.fields);
    if (!result.ok) return { left: drafts.slice(i), result };
  }
  return { left: [], result: { ok: true } };
}
