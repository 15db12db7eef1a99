import type { Scenario, ScriptedToolCall, ScriptedTurn } from '../test-support/scripted-api/scenario';

/**
 * Planning calls for the latency run, in the default (structured) dialect. Rounds of a fresh
 * 25-step plan (goal "Round r") whose steps are started and completed in turn; the last step is
 * never finished, so the panel stays up. Every update leaves a distinct, monotonic mark in the
 * panel, which the page reads back as the update's index:
 *   index = round · PER_ROUND + 2 · completed + (a step in progress ? 1 : 0)
 */
export const PLAN_STEPS = 25;
export const PER_ROUND = 1 + 2 * (PLAN_STEPS - 1);

export function planUpdateCalls(count: number): ScriptedToolCall[] {
  const calls: ScriptedToolCall[] = [];
  for (let round = 0; calls.length < count; round++) {
    calls.push({
      name: 'create_plan',
      input: { goal: `Round ${round}`, steps: Array.from({ length: PLAN_STEPS }, (_, i) => ({ step_number: i + 1, description: `Round ${round} step ${i + 1}` })) },
    });
    for (let n = 1; n < PLAN_STEPS; n++) {
      calls.push({ name: 'update_plan', input: { action: 'start_step', step_number: n } });
      calls.push({ name: 'update_plan', input: { action: 'complete_step', step_number: n, result: 'done' } });
    }
  }
  return calls.slice(0, count);
}

/** `perTurn` calls in each model turn, all at once (no pacing inside the reply); then a last text. */
export function planLatencyScenario(count: number, perTurn: number): Scenario {
  const calls = planUpdateCalls(count);
  const turns: ScriptedTurn[] = [];
  for (let i = 0; i < calls.length; i += perTurn) turns.push({ kind: 'tool_use', calls: calls.slice(i, i + perTurn), delayMs: 0, chunkChars: 100_000 });
  turns.push({ kind: 'text', text: 'All planned updates sent.', delayMs: 0, chunkChars: 100_000 });
  return { name: 'bench-plan-latency', turns, gated: true, onExhausted: 'echo' };
}
