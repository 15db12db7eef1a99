import { withLine, withSnapshot, type SubAgent } from '../../../shared/subagents';
import { failed, OK } from './errors';
import type { SliceCreator, SubAgentSlice } from './types';

/** Each chat's sub-agents as main keeps them: a snapshot per sub-agent, the latest winning (subagent_updated),
 * its card's lines gathered as they happen (subagent_line). */
export const createSubAgentSlice: SliceCreator<SubAgentSlice> = (set, _get, api) => ({
  subagents: {},
  setSubAgents(sessionId, agents) {
    set((state) => ({ subagents: { ...state.subagents, [sessionId]: agents } }));
  },
  applySubAgent(sessionId, agent) {
    set((state) => {
      const held = state.subagents[sessionId] ?? [];
      const at = held.findIndex((a) => a.id === agent.id);
      const next: SubAgent[] = at < 0 ? [...held, agent] : held.map((a, i) => (i === at ? withSnapshot(a, agent) : a));
      return { subagents: { ...state.subagents, [sessionId]: next } };
    });
  },
  applySubAgentLine(sessionId, agentId, line) {
    set((state) => {
      const held = state.subagents[sessionId];
      if (!held?.some((a) => a.id === agentId)) return {};
      const next = held.map((a) => (a.id === agentId ? { ...a, transcript: withLine(a.transcript, line) } : a));
      return { subagents: { ...state.subagents, [sessionId]: next } };
    });
  },
  async stopSubAgent(sessionId, agentId) {
    try {
      const { stopped, reason } = await api.call('stopSubAgent', { sessionId, agentId });
      return stopped ? OK : failed(new Error(reason ?? 'That sub-agent is not working now.'));
    } catch (error) {
      return failed(error);
    }
  },
});
