import type { Dialect } from '../src/shared/plan';

/**
 * For each dialect, one "round" of planning calls at a plan size: `setup` builds a plan of that
 * size (not timed: it passes through smaller sizes), `measured` is a realistic mix of calls on
 * the plan at that size. Inputs are what Claude would send (seed shapes).
 */
export interface Call {
  name: string;
  input: unknown;
}
export interface Round {
  setup: Call[];
  measured: Call[];
}

/** Calls per round are capped so small plans run many rounds and big ones a few. */
const MAX_MEASURED = 300;
const title = (i: number) => `Step ${i}: implement part ${i} of the feature and check it`;
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, k) => from + k);
const chunks = <T>(items: T[], size: number): T[][] => range(0, Math.ceil(items.length / size) - 1).map((k) => items.slice(k * size, (k + 1) * size));

function structured(size: number): Round {
  const first = Math.min(size, 100); // create_plan takes at most 100 steps; add_step adds the rest
  const setup: Call[] = [
    { name: 'create_plan', input: { goal: `Bench plan of ${size} steps`, steps: range(1, first).map((n) => ({ step_number: n, description: title(n), success_criteria: 'tests pass' })) } },
    ...range(first + 1, size).map((n) => ({ name: 'update_plan', input: { action: 'add_step', new_step: { description: title(n) } } })),
  ];
  const measured = range(1, Math.min(size - 1, MAX_MEASURED / 3)).flatMap((n) => [
    { name: 'update_plan', input: { action: 'start_step', step_number: n } },
    { name: 'update_plan', input: { action: 'note', step_number: n, note: `Observed output of part ${n}` } },
    { name: 'update_plan', input: { action: 'complete_step', step_number: n, result: `Part ${n} done` } },
  ]);
  return { setup, measured };
}

function checklist(size: number): Round {
  const n = Math.min(size, 12); // the dialect's own limit: 1–12 steps
  const list = (current: number) => range(1, n).map((k) => ({ step: title(k), status: k < current ? 'completed' : k === current ? 'in_progress' : 'pending' }));
  const measured = range(1, n - 1).map((current) => ({ name: 'update_plan', input: { explanation: `Working on step ${current}`, plan: list(current) } }));
  return { setup: [{ name: 'update_plan', input: { plan: list(0) } }], measured };
}

function session(size: number): Round {
  const first = Math.min(size, 100);
  const setup: Call[] = [
    { name: 'planning_setup_plan', input: { objective: `Bench plan of ${size} steps`, initial_steps: range(1, first).map(title) } },
    ...chunks(range(first + 1, size), 100).map((ids) => ({ name: 'planning_add_step', input: { steps: ids.map(title) } })),
  ];
  const measured = range(1, Math.min(size - 1, MAX_MEASURED / 3)).flatMap((id) => [
    { name: 'planning_update_step', input: { step_id: id, status: 'in_progress' } },
    { name: 'planning_read_plan', input: {} },
    { name: 'planning_update_step', input: { step_id: id, status: 'done' } },
  ]);
  return { setup, measured };
}

/** WBS: top-level phases of 9 children each; `{{session}}` is replaced by planning_initialize's id. */
function wbs(size: number): Round {
  const items = range(1, size - 1).map((k) => {
    const phase = Math.floor((k - 1) / 10) + 1;
    const top = (k - 1) % 10 === 0;
    return top
      ? { id: `${phase}.0`, title: `Phase ${phase}`, level: 0, priority: 'High' }
      : { id: `${phase}.${(k - 1) % 10}`, title: title(k), level: 1, parent_id: `${phase}.0`, priority: 'Medium' };
  });
  const batches = chunks(items, 10);
  const addStep = (n: number, wbs_items: unknown[]) => ({ name: 'planning_add_step', input: { session_id: '{{session}}', step_number: n, planning_analysis: `Breakdown ${n}`, wbs_items } });
  const last = { id: `${Math.floor((size - 1) / 10) + 2}.0`, title: 'Wrap up', level: 0, priority: 'Low' };
  return {
    setup: [{ name: 'planning_initialize', input: { problem_statement: `Bench project of ${size} items`, project_name: 'Bench' } }, ...batches.map((b, i) => addStep(i + 1, b))],
    measured: [
      addStep(batches.length + 1, [last]),
      ...range(1, 3).flatMap(() => [
        { name: 'planning_status', input: { session_id: '{{session}}' } },
        { name: 'planning_list', input: {} },
      ]),
      { name: 'planning_finalize', input: { session_id: '{{session}}' } },
    ],
  };
}

export const ROUNDS: Record<Dialect, (size: number) => Round> = { structured, checklist, wbs, session };
