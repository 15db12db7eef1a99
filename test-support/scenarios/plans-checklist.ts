import type { Scenario, ScriptedTurn } from '../scripted-api/scenario';

/** The "Planning System" seed's example: a user-preferences endpoint, 6 steps to all completed. */
const steps = [
  'Create preferences model',
  'Add database migration',
  'Implement GET /preferences endpoint',
  'Implement PUT /preferences endpoint',
  'Add input validation',
  'Write tests',
];

const listAt = (done: number) =>
  steps.map((step, i) => ({ step, status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending' }));

const progress: ScriptedTurn[] = steps.map((step, i) => ({
  kind: 'tool_use',
  text: i + 1 < steps.length ? `Finished "${step}", moving on.` : `Finished "${step}".`,
  calls: [{ name: 'update_plan', input: { plan: listAt(i + 1) } }],
}));

export const plansChecklist: Scenario = {
  name: 'plans-checklist',
  description: 'checklist dialect: whole-list update_plan, 6 steps progressing to all completed',
  onExhausted: 'echo',
  turns: [
    {
      kind: 'tool_use',
      text: 'Here is my plan.',
      calls: [{ name: 'update_plan', input: { explanation: 'Add user preferences endpoint', plan: listAt(0) } }],
    },
    ...progress,
    { kind: 'text', text: 'The user preferences endpoint is in place: model, migration, GET and PUT, validation and tests.' },
  ],
};
