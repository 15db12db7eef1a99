import type { Dialect } from '../../../shared/plan';
import type { ToolDefinition } from '../../tools/tool';
import { checklistGuidance, checklistTools } from './checklist';
import type { DialectDeps } from './dialect-deps';
import { sessionGuidance, sessionTools } from './session';
import { structuredGuidance, structuredTools } from './structured';
import { wbsGuidance, wbsTools } from './wbs';

/** Every dialect's tool set and system-prompt guidance, keyed by the Settings "Planning style". */
export const DIALECT_TOOLS: Record<Dialect, (deps: DialectDeps) => ToolDefinition[]> = {
  structured: structuredTools,
  checklist: checklistTools,
  wbs: wbsTools,
  session: sessionTools,
};

export const DIALECT_GUIDANCE: Record<Dialect, string> = {
  structured: structuredGuidance,
  checklist: checklistGuidance,
  wbs: wbsGuidance,
  session: sessionGuidance,
};
