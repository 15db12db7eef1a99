import type { Scenario, ScriptedToolCall, ScriptedTurn } from '../test-support/scripted-api/scenario';

/**
 * Planning calls for the latency run, in the default (structured) dialect. Rounds of a fresh
 * `steps`-step plan (25 unless given) (goal "Round r") whose steps are started and completed in turn; the last step is
 * never finished, so the panel stays up. Every update leaves a distinct, monotonic mark in the
 * panel, which the page reads back as the update's index:
 *   index = round · perRound(steps) + 2 · completed + (a step in progress ? 1 : 0)
 */
export const PLAN_STEPS = 25;
export const perRound = (steps: number): number => 1 + 2 * (steps - 1);

export function planUpdateCalls(count: number, steps = PLAN_STEPS): ScriptedToolCall[] {
  const calls: ScriptedToolCall[] = [];
  for (let round = 0; calls.length < count; round++) {
    calls.push({
      name: 'create_plan',
      input: { goal: `Round ${round}`, steps: Array.from({ length: steps }, (_, i) => ({ step_number: i + 1, description: `Round ${round} step ${i + 1}` })) },
    });
    for (let n = 1; n < steps; n++) {
      calls.push({ name: 'update_plan', input: { action: 'start_step', step_number: n } });
      calls.push({ name: 'update_plan', input: { action: 'complete_step', step_number: n, result: 'done' } });
    }
  }
  return calls.slice(0, count);
}

/** `perTurn` calls in each model turn, all at once (no pacing inside the reply); then a last text. */
export function planLatencyScenario(count: number, perTurn: number, steps = PLAN_STEPS): Scenario {
  const calls = planUpdateCalls(count, steps);
  const turns: ScriptedTurn[] = [];
  for (let i = 0; i < calls.length; i += perTurn) turns.push({ kind: 'tool_use', calls: calls.slice(i, i + perTurn), delayMs: 0, chunkChars: 100_000 });
  turns.push({ kind: 'text', text: 'All planned updates sent.', delayMs: 0, chunkChars: 100_000 });
  return { name: 'bench-plan-latency', turns, gated: true, onExhausted: 'echo' };
}
