import { afterEach, describe, expect, it } from 'vitest';
import type { Dialect } from '../../shared/plan';
import { plansChecklist } from '../../../test-support/scenarios/plans-checklist';
import { plansSession } from '../../../test-support/scenarios/plans-session';
import { plansShowcase } from '../../../test-support/scenarios/plans-showcase';
import { plansStructured } from '../../../test-support/scenarios/plans-structured';
import { plansWbs, WBS_SESSION_PLACEHOLDER } from '../../../test-support/scenarios/plans-wbs';
import type { Scenario } from '../../../test-support/scripted-api/scenario';
import { planHarness } from '../../../test-support/main/plan-test-kit';

/**
 * Replays each plan scenario's tool calls against a real PlanService: every planning call must
 * succeed; another tool call (a verification step's check) is recorded on the step in progress,
 * as the loop records it.
 */
describe.each<[Scenario, Dialect, string]>([
  [plansStructured, 'structured', 'completed'],
  [plansShowcase, 'structured', 'completed'],
  [plansChecklist, 'checklist', 'completed'],
  [plansSession, 'session', 'completed'],
  [plansWbs, 'wbs', 'completed'],
])('scenario %#', (scenario, dialect, finalStatus) => {
  let h = planHarness();
  afterEach(() => h.cleanup());

  it(`${scenario.name} drives the ${dialect} dialect to ${finalStatus}, one planning call per turn`, async () => {
    h = planHarness();
    let sessionId = '';
    const planning = new Set(h.service.toolsFor(dialect).map((t) => t.name));
    for (const turn of scenario.turns) {
      if (turn.kind !== 'tool_use') continue;
      expect(turn.calls.filter((c) => planning.has(c.name))).toHaveLength(1);
      for (const call of turn.calls) {
        if (!planning.has(call.name)) {
          const running = h.service.currentStepId('s1');
          expect(running).not.toBeNull();
          h.service.recordToolCall('s1', running!, { at: new Date().toISOString(), tool: call.name, summary: call.name, durationMs: 1, ok: true });
          continue;
        }
        const input = JSON.parse(JSON.stringify(call.input).replaceAll(WBS_SESSION_PLACEHOLDER, sessionId));
        const content = await h.must(dialect, call.name, input);
        if (content.startsWith('{')) sessionId = (JSON.parse(content) as { sessionId?: string }).sessionId ?? sessionId;
      }
    }
    expect(scenario.turns.at(-1)?.kind).toBe('text');
    expect(h.service.getPlan('s1')?.status).toBe(finalStatus);
    expect(h.events.length).toBeGreaterThan(2);
  });
});
