import type { Scenario } from '../scripted-api/scenario';

/** A lively structured plan for a newcomer demo: steps, a note, a discovered step, a summary. */
export const plansShowcase: Scenario = {
  name: 'plans-showcase',
  description: 'structured dialect demo: 5 steps, a note, an added step, complete_plan',
  onExhausted: 'echo',
  turns: [
    {
      kind: 'tool_use',
      text: "Good idea. Here's how I'll approach adding dark mode:",
      calls: [
        {
          name: 'create_plan',
          input: {
            goal: 'Add a dark mode toggle to the settings page',
            steps: [
              { step_number: 1, description: 'Survey existing colours and theme variables', tools_to_use: ['search_files', 'read_file'] },
              { step_number: 2, description: 'Introduce CSS variables for light and dark themes', depends_on: [1] },
              { step_number: 3, description: 'Add the toggle to the settings page', depends_on: [2] },
              { step_number: 4, description: 'Remember the choice between sessions', depends_on: [3] },
              { step_number: 5, description: 'Run the tests and check contrast', is_verification: true, depends_on: [4], success_criteria: 'Tests pass; text contrast ≥ 4.5:1' },
            ],
            verification_approach: 'Run the test suite and check contrast in both themes',
            estimated_tool_calls: 12,
            rollback_strategy: 'Revert the stylesheet changes if the tests fail',
          },
        },
      ],
    },
    { kind: 'tool_use', text: 'Looking at the current styles first.', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'note', step_number: 1, note: '14 hard-coded colours across 3 stylesheets' } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'Found 14 colours to convert' } }] },
    { kind: 'tool_use', text: 'Converting them to variables.', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 2 } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 2, result: 'Theme variables in place' } }] },
    {
      kind: 'tool_use',
      text: 'Icons are hard-coded black too, so I am adding a step for them.',
      calls: [{ name: 'update_plan', input: { action: 'add_step', new_step: { description: 'Make icons follow the theme colour', after_step: 2 } } }],
    },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 6 } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 6, result: 'Icons use currentColor' } }] },
    { kind: 'tool_use', text: 'Now the toggle itself.', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 3 } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 3, result: 'Toggle added under Appearance' } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 4 } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 4, result: 'Stored in localStorage' } }] },
    {
      kind: 'tool_use',
      text: 'Verifying.',
      // A verification step is completed only after a check made while it is in progress.
      calls: [
        { name: 'update_plan', input: { action: 'start_step', step_number: 5 } },
        { name: 'list_directory', input: { path: '.' } },
      ],
    },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 5, result: 'All tests pass; contrast 7.1:1' } }] },
    {
      kind: 'tool_use',
      calls: [
        {
          name: 'complete_plan',
          input: {
            status: 'success',
            summary: 'Dark mode works: theme variables, themed icons, a settings toggle that is remembered, tests green.',
            steps_completed: 6,
            issues_encountered: ['Icons were hard-coded black (added a step to fix)'],
            recommendations: 'Consider following the system theme by default.',
          },
        },
      ],
    },
    { kind: 'text', text: 'Dark mode is ready. Toggle it under **Settings → Appearance**; your choice is remembered.' },
  ],
};
