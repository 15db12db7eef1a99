import type { InstructionsView, SkillsView } from '../../../shared/skills';
import { messageOf } from './errors';
import type { SliceCreator } from './types';

export type Loaded<T> = { ok: true; value: T } | { ok: false; message: string };

/** Project instructions and skills as main reads them now: the "Instructions" list and Settings "Skills". */
export interface ProjectSlice {
  loadInstructions(sessionId: string): Promise<Loaded<InstructionsView>>;
  /** The open chat's workspace's skills and the data folder's. */
  loadSkills(): Promise<Loaded<SkillsView>>;
}

export const createProjectSlice: SliceCreator<ProjectSlice> = (_set, get, api) => ({
  async loadInstructions(sessionId) {
    try {
      return { ok: true, value: await api.call('getInstructions', { sessionId }) };
    } catch (error) {
      return { ok: false, message: messageOf(error) };
    }
  },
  async loadSkills() {
    const sessionId = get().currentSessionId;
    try {
      return { ok: true, value: await api.call('listSkills', sessionId ? { sessionId } : {}) };
    } catch (error) {
      return { ok: false, message: messageOf(error) };
    }
  },
});
