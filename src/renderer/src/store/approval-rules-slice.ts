import type { ApprovalRuleFields } from '../../../shared/approval-rules';
import { failed, OK } from './errors';
import type { ActionResult, SliceCreator } from './types';

/**
 * Settings → Approval rules: each change is its own call. The dialog holds the rules added in it
 * and sends them on Save (settings/rule-drafts.ts); "Remove rule" on a saved rule is sent at once.
 * The rules come back with settings_updated to every window.
 */
export interface ApprovalRulesSlice {
  addApprovalRule(rule: ApprovalRuleFields): Promise<ActionResult>;
  removeApprovalRule(id: string): Promise<ActionResult>;
}

export const createApprovalRulesSlice: SliceCreator<ApprovalRulesSlice> = (_set, _get, api) => ({
  async addApprovalRule(rule) {
    try {
      await api.call('addApprovalRule', { rule });
      return OK;
    } catch (error) {
      return failed(error);
    }
  },
  async removeApprovalRule(id) {
    try {
      await api.call('removeApprovalRule', { id });
      return OK;
    } catch (error) {
      return failed(error);
    }
  },
});
