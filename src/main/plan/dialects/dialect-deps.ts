import { randomBytes } from 'node:crypto';
import type { Plan } from '../../../shared/plan';
import type { AtomicFileWriter } from '../../common/atomic-write';
import type { EngineOptions, OpResult } from '../engine/engine-types';

/** What a dialect's tools need from the PlanService: the session's plan and a way to change it. */
export interface DialectDeps {
  options: EngineOptions;
  get(sessionId: string): Plan | null;
  earlier(sessionId: string): readonly Plan[];
  apply(sessionId: string, operation: (current: Plan | null) => OpResult): OpResult;
  dataDir: string;
  /** The chat's workspace folder, where WBS.md goes (the data folder holds it for a chat without one). */
  workspaceOf(sessionId: string): string | null;
  writer: AtomicFileWriter;
}

/** "<prefix>_<unix ms>_<8 hex>", e.g. the WBS seed's planning_1234567890_abcd1234. */
export function newPlanId(prefix: string, now: Date): string {
  return `${prefix}_${now.getTime()}_${randomBytes(4).toString('hex')}`;
}
