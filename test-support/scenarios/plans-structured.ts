import { SEED_GRID_PLAN } from '../main/seed-tool-calls';
import type { Scenario } from '../scripted-api/scenario';

/** Seed P4-02's example: a 3×3 structural grid, planned, worked step by step, completed. */
export const plansStructured: Scenario = {
  name: 'plans-structured',
  description: 'structured dialect: create_plan, start/complete each of 3 steps, complete_plan success',
  onExhausted: 'echo',
  turns: [
    {
      kind: 'tool_use',
      text: "I'll plan this first.",
      calls: [
        {
          name: 'create_plan',
          input: SEED_GRID_PLAN,
        },
      ],
    },
    { kind: 'tool_use', text: 'Starting with the vertical grid lines.', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'Grids A, B, C placed' } }] },
    { kind: 'tool_use', text: 'Now the horizontal ones.', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 2 } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 2, result: 'Grids 1, 2, 3 placed' } }] },
    {
      kind: 'tool_use',
      text: 'Checking the layout.',
      // A verification step is completed only after a check made while it is in progress.
      calls: [
        { name: 'update_plan', input: { action: 'start_step', step_number: 3 } },
        { name: 'list_directory', input: { path: '.' } },
      ],
    },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 3, result: 'Screenshot shows a 3x3 grid' } }] },
    {
      kind: 'tool_use',
      calls: [
        {
          name: 'complete_plan',
          input: { status: 'success', summary: "Created a 3x3 structural grid at 25' spacing and verified it.", steps_completed: 3, steps_failed: 0, steps_skipped: 0, issues_encountered: [] },
        },
      ],
    },
    { kind: 'text', text: "Done: the 3x3 grid is in place at 25' spacing, and the screenshot confirms the layout." },
  ],
};
