import { saveTextFile } from '../lib/save-text-file';
import { failed, OK } from './errors';
import type { PlanSlice, SliceCreator } from './types';

export const createPlanSlice: SliceCreator<PlanSlice> = (set, get, api) => ({
  plans: {},
  applyPlan(sessionId, plan) {
    const held = get().plans[sessionId];
    if (plan === null) {
      // An empty snapshot may predate an event we already applied: never let it erase a plan.
      if (held === undefined) set((state) => ({ plans: { ...state.plans, [sessionId]: null } }));
      return;
    }
    if (held && plan.version <= held.version) return; // stale or duplicate (design.md §1)
    set((state) => ({ plans: { ...state.plans, [sessionId]: plan } }));
  },
  async exportPlan(sessionId) {
    try {
      const { markdown, fileName } = await api.call('exportPlan', { sessionId });
      saveTextFile(fileName, markdown);
      return OK;
    } catch (error) {
      return failed(error);
    }
  },
});
