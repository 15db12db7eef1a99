import type { Scenario, ScriptedTurn } from '../test-support/scripted-api/scenario';

/**
 * A 20-request agentic run in the default (structured) dialect: a 6-step plan worked through with
 * notes, then a final answer. Used to see how much of each request repeats the previous one.
 */
export function twentyTurnScenario(): Scenario {
  const steps = ['Read the failing test', 'Find the cause', 'Write the fix', 'Add a regression test', 'Run the suite', 'Summarise'];
  const turns: ScriptedTurn[] = [
    {
      kind: 'tool_use',
      text: 'I will plan this first.',
      calls: [{ name: 'create_plan', input: { goal: 'Fix the flaky date test', steps: steps.map((description, i) => ({ step_number: i + 1, description })) } }],
    },
  ];
  for (let n = 1; n <= 6; n++) {
    turns.push({ kind: 'tool_use', text: `Starting step ${n}.`, calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: n } }] });
    if (n <= 6) turns.push({ kind: 'tool_use', text: `Step ${n} looked fine.`, calls: [{ name: 'update_plan', input: { action: 'note', step_number: n, note: `Checked part ${n}.` } }] });
    turns.push({ kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: n, result: `Step ${n} done` } }] });
  }
  turns.length = 19; // 19 tool turns, then the final answer: 20 requests
  turns.push({ kind: 'text', text: 'The flaky test is fixed: the date is now injected, and a regression test covers midnight.' });
  return { name: 'bench-twenty-turns', turns, onExhausted: 'echo' };
}
