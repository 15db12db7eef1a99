import type { PlanSlice, SliceCreator } from './types';

export const createPlanSlice: SliceCreator<PlanSlice> = (set, get) => ({
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
});
