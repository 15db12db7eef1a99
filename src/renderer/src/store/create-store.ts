import { createStore } from 'zustand/vanilla';
import type { WaypointApi } from '../../../shared/contract';
import { createAppSlice } from './app-slice';
import { createApprovalSlice } from './approval-slice';
import { createEscalationSlice } from './escalation-slice';
import { createMcpSlice } from './mcp-slice';
import { createChatSlice } from './chat-slice';
import { createPlanSlice } from './plan-slice';
import { createSessionsSlice } from './sessions-slice';
import { createSessionsManageSlice } from './sessions-manage-slice';
import { createSettingsSlice } from './settings-slice';
import { createUiSlice } from './ui-slice';
import { createLayoutSlice } from './layout-slice';
import { createDraftsSlice } from './drafts-slice';
import { createMcpNoticeSlice } from './mcp-notice-slice';
import { createQuestionSlice } from './question-slice';
import { createRerunSlice } from './rerun-slice';
import { createApprovalRulesSlice } from './approval-rules-slice';
import { createPlanEditSlice } from './plan-edit-slice';
import { createContextSlice } from './context-slice';
import { createAttachmentsSlice } from './attachments-slice';
import { createFindSlice } from './find-slice';
import { createTranscriptPagesSlice } from './transcript-pages-slice';
import { createChatWriterSlice } from './chat-writer-slice';
import { createProjectSlice } from './project-slice';
import { createWaitingPromptsSlice } from './waiting-prompts-slice';
import { createSubAgentSlice } from './subagent-slice';
import { createChangesSlice } from './changes-slice';
import type { WaypointStore } from './types';

/** The one store: typed slices sharing set/get, with actions that call the given api. */
export function createWaypointStore(api: WaypointApi): WaypointStore {
  return createStore((set, get) => ({
    ...createAppSlice(set, get, api),
    ...createSessionsSlice(set, get, api),
    ...createChatSlice(set, get, api),
    ...createPlanSlice(set, get, api),
    ...createSettingsSlice(set, get, api),
    ...createApprovalSlice(set, get, api),
    ...createMcpSlice(set, get, api),
    ...createEscalationSlice(set, get, api),
    ...createSessionsManageSlice(set, get, api),
    ...createUiSlice(set, get, api),
    ...createLayoutSlice(set, get, api),
    ...createDraftsSlice()(set, get, api),
    ...createMcpNoticeSlice(set, get, api),
    ...createQuestionSlice(set, get, api),
    ...createRerunSlice(set, get, api),
    ...createApprovalRulesSlice(set, get, api),
    ...createPlanEditSlice(set, get, api),
    ...createContextSlice(set, get, api),
    ...createAttachmentsSlice(set, get, api),
    ...createFindSlice(set, get, api),
    ...createTranscriptPagesSlice(set, get, api),
    ...createChatWriterSlice(set, get, api),
    ...createProjectSlice(set, get, api),
    ...createWaitingPromptsSlice(set, get, api),
    ...createSubAgentSlice(set, get, api),
    ...createChangesSlice(set, get, api),
  }));
}
