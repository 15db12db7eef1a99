import type { Scenario } from '../scripted-api/scenario';

/** The "Planning Tool Suite" seed: set up a small plan, add a step, work it to completion. */
export const plansSession: Scenario = {
  name: 'plans-session',
  description: 'session dialect: planning_setup_plan, add, update each step to done, read',
  onExhausted: 'echo',
  turns: [
    {
      kind: 'tool_use',
      text: 'Setting up a plan.',
      calls: [{ name: 'planning_setup_plan', input: { objective: 'Add a --verbose flag to the CLI', initial_steps: ['Parse the flag', 'Print debug output'] } }],
    },
    { kind: 'tool_use', calls: [{ name: 'planning_add_step', input: { steps: ['Run the tests'] } }] },
    { kind: 'tool_use', calls: [{ name: 'planning_update_step', input: { step_id: 1, status: 'in_progress' } }] },
    { kind: 'tool_use', calls: [{ name: 'planning_update_step', input: { step_id: 1, status: 'done' } }] },
    { kind: 'tool_use', calls: [{ name: 'planning_update_step', input: { step_id: 2, status: 'in_progress' } }] },
    { kind: 'tool_use', calls: [{ name: 'planning_update_step', input: { step_id: 2, status: 'done' } }] },
    {
      kind: 'tool_use',
      // "Run the tests" is a verification step: completed only after a check made while it is in progress.
      calls: [
        { name: 'planning_update_step', input: { step_id: 3, status: 'in_progress' } },
        { name: 'list_directory', input: { path: '.' } },
      ],
    },
    { kind: 'tool_use', calls: [{ name: 'planning_update_step', input: { step_id: 3, status: 'done' } }] },
    { kind: 'tool_use', calls: [{ name: 'planning_read_plan', input: {} }] },
    { kind: 'text', text: 'The --verbose flag is parsed, prints debug output, and the tests pass.' },
  ],
};
