import type { WaypointEvent } from '../../../shared/contract';
import type { WaypointState } from './types';

/** Routes one event from main to the store action that owns it. Deltas and plans go through batchers first (connect.ts). */
export function applyEvent(state: WaypointState, event: WaypointEvent): void {
  switch (event.type) {
    case 'transcript_item':
      state.upsertItem(event.sessionId, event.item, event.index);
      return;
    case 'message_delta':
      state.appendDelta(event.sessionId, event.itemId, event.text, event.offset);
      return;
    case 'message_done':
      state.finishMessage(event.sessionId, event.itemId, event.stopReason);
      return;
    case 'run_state':
      state.setRunState(event.sessionId, event.state);
      return;
    case 'session_updated':
      state.upsertSession(event.session);
      return;
    case 'plan_updated':
      state.applyPlanUpdate(event);
      return;
    case 'subagent_updated':
      state.applySubAgent(event.sessionId, event.subagent);
      return;
    case 'subagent_line':
      state.applySubAgentLine(event.sessionId, event.agentId, event.line);
      return;
    case 'settings_updated':
      state.setSettingsView(event.view);
      return;
    case 'approval_requested':
      state.setApproval(event.sessionId, event.request);
      return;
    case 'approval_resolved':
      state.resolveApproval(event.sessionId, event.requestId);
      return;
    case 'escalation_requested':
      state.setEscalation(event.sessionId, event.request);
      return;
    case 'escalation_resolved':
      state.resolveEscalation(event.sessionId, event.requestId);
      return;
    case 'question_requested':
      state.setQuestion(event.sessionId, event.request);
      return;
    case 'question_resolved':
      state.resolveQuestion(event.sessionId, event.requestId);
      return;
    case 'chat_rewound':
      state.applyRewind(event.sessionId, event.fromItemId, event.planDropped, event.index);
      return;
    case 'session_deleted':
      state.removeSession(event.sessionId);
      return;
    case 'open_chat':
      // A desktop notification was clicked: its chat opens, with the prompt it waits on.
      state.closeSettings();
      void state.openSession(event.sessionId);
      return;
    case 'mcp_state':
      state.setMcpStates(event.servers);
      return;
    case 'error':
      if (!event.sessionId || event.sessionId === state.currentSessionId) state.setLastError(event.message);
      return;
  }
}
