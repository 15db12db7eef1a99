import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dialect } from '../../src/shared/plan';
import { defaultSettings } from '../../src/shared/settings';
import type { ToolContext, ToolOutcome } from '../../src/main/tools/tool';
import { PlanService, type PlanServiceOptions } from '../../src/main/plan/plan-service';
import { callTool } from '../../src/main/tools/define-tool';
import type { PlanUpdate } from '../../src/main/plan/plan-service.types';

/** Test support (not a test): a PlanService on a temp dir that records its events. */
export function planHarness(options: Partial<PlanServiceOptions> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-plan-'));
  let tick = Date.parse('2025-01-19T14:30:00Z');
  const service = new PlanService({ dataDir, now: () => new Date((tick += 1000)), ...options });
  const events: PlanUpdate[] = [];
  service.onPlanUpdated((e) => events.push(e));
  const ctx = (sessionId: string): ToolContext => ({ sessionId, signal: new AbortController().signal, settings: defaultSettings() });

  async function call(dialect: Dialect, name: string, input: unknown, sessionId = 's1'): Promise<ToolOutcome> {
    const tool = service.toolsFor(dialect).find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name} in ${dialect}`);
    return callTool(tool, input, ctx(sessionId));
  }

  /** Calls a tool that must succeed and returns its content. */
  async function must(dialect: Dialect, name: string, input: unknown, sessionId = 's1'): Promise<string> {
    const outcome = await call(dialect, name, input, sessionId);
    if (!outcome.ok) throw new Error(`${name} failed: ${outcome.error.message}`);
    return outcome.content;
  }

  return { service, events, dataDir, call, must, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

export function errorOf(outcome: ToolOutcome): string {
  if (outcome.ok) throw new Error(`expected an error, got: ${outcome.content}`);
  return outcome.error.message;
}
