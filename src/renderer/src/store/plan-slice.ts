import type { Plan } from '../../../shared/plan';
import { planChangeItems, planProgress } from '../../../shared/plan-change';
import { saveTextFile } from '../lib/save-text-file';
import { failed, OK } from './errors';
import { shareSteps } from './share-steps';
import { withItem } from './transcript-window';
import type { PlanSlice, SliceCreator } from './types';

/** The one place the renderer checks a plan's version: stale or duplicate plans are dropped (docs/contract.md §1). */
const isNewer = (plan: Plan, held: Plan | null | undefined): boolean => !held || plan.version > held.version;

export const createPlanSlice: SliceCreator<PlanSlice> = (set, get, api) => ({
  plans: {},
  applyPlan(sessionId, plan) {
    const held = get().plans[sessionId];
    if (plan === null) {
      // An empty snapshot may predate an event we already applied: never let it erase a plan.
      if (held === undefined) set((state) => ({ plans: { ...state.plans, [sessionId]: null } }));
      return;
    }
    if (!isNewer(plan, held)) return;
    set((state) => ({ plans: { ...state.plans, [sessionId]: shareSteps(held, plan) } }));
  },
  applyPlanUpdate(update) {
    const { sessionId, plan } = update;
    const held = get().plans[sessionId];
    if (!isNewer(plan, held)) return;
    set((state) => {
      const transcript = state.transcripts[sessionId];
      return {
        plans: { ...state.plans, [sessionId]: shareSteps(held, plan) },
        // Its lines are new items at the end, as in main; a chat not opened yet gets them with its snapshot.
        ...(transcript
          ? { transcripts: { ...state.transcripts, [sessionId]: planChangeItems(held ?? null, update).reduce((window, item) => withItem(window, item), transcript) } }
          : {}),
        sessions: state.sessions.map((s) => (s.id === sessionId ? { ...s, planProgress: planProgress(plan, s.planProgress) } : s)),
      };
    });
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
