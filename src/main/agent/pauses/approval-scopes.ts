import { randomUUID } from 'node:crypto';
import type { WaypointEvent } from '../../../shared/contract';
import type { ApprovalRule } from '../../../shared/approval-rules';
import type { ApprovalDecision, ApprovalRequest } from '../../../shared/prompts';
import type { Settings } from '../../../shared/settings';
import { UserFacingError } from '../../common/errors';
import { nowIso } from '../../common/transcript-items';
import type { ChatSession } from '../../chats/chat-session';
import type { SettingsSource } from '../ports';

/**
 * Scoped approvals (docs/contract.md §5): "Approve for this chat" keeps a rule with the chat (its
 * summary, so its log has it after a restart and no other chat ever sees it); "Always approve"
 * saves one in Settings for every chat and never touches the auto-approve switches.
 */

export interface ScopeDeps {
  settings: SettingsSource;
  session: ChatSession;
  publish(event: WaypointEvent): void;
}

/** Every rule that applies in this chat, as they are now: Settings' and the chat's own. */
export function rulesIn(settings: Settings, session: ChatSession): ApprovalRule[] {
  return [...settings.approvalRules, ...(session.summary.approvalRules ?? [])];
}

export const isScoped = (decision: ApprovalDecision): boolean => decision === 'approve_chat' || decision === 'approve_always';

/** A scoped answer to a call no rule can hold is refused (the dialog offers only "Approve" then). */
export function checkScopedAnswer(request: ApprovalRequest, decision: ApprovalDecision): void {
  if (isScoped(decision) && request.protected) {
    throw new UserFacingError('invalid_input', `This call can only be approved once: ${request.protected} Such changes always ask. Press Approve or Deny.`);
  }
  if (isScoped(decision) && !request.scope) {
    throw new UserFacingError(
      'invalid_input',
      'This call can only be approved once: a command with shell operators (; & | < > ` $() is never remembered. Press Approve or Deny.',
    );
  }
}

/** Remembers what a scoped approval covers; a plain Approve or Deny remembers nothing. */
export async function rememberScope(deps: ScopeDeps, request: ApprovalRequest, decision: ApprovalDecision): Promise<void> {
  const scope = request.scope;
  if (!isScoped(decision) || !scope) return;
  if (decision === 'approve_always') {
    try {
      await deps.settings.addApprovalRule({ ...scope, effect: 'allow' });
    } catch (error) {
      // The call itself was approved; only remembering failed (the disk): it is asked again next time.
      console.warn(`[waypoint] could not save the approval rule: ${(error as Error).message}`);
    }
    return;
  }
  const summary = deps.session.summary;
  const held = summary.approvalRules ?? [];
  if (held.some((r) => r.effect === 'allow' && r.tool === scope.tool && r.server === scope.server && r.pattern === scope.pattern)) return;
  const rule: ApprovalRule = { id: randomUUID(), ...scope, effect: 'allow', createdAt: nowIso() };
  deps.publish({ type: 'session_updated', session: { ...summary, approvalRules: [...held, rule] } });
}
