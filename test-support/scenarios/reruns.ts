import type { Scenario } from '../scripted-api/scenario';

/**
 * Edit message and Retry reply: a reply that makes a plan and writes a file (so the replaced
 * turns changed something), then plain replies. Tests put NOTES.md in the workspace.
 */

export const RERUN_FILE = 'NOTES.md';
export const RERUN_FILE_TEXT = '# Notes\n';

export const rerunPlan: Scenario = {
  name: 'rerun-plan',
  description: 'A plan of one step that writes NOTES.md; later messages are echoed (edit and rerun it).',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', text: "I'll plan it.", calls: [{ name: 'create_plan', input: { goal: 'Write the notes', steps: [{ step_number: 1, description: 'Write NOTES.md' }, { step_number: 2, description: 'Review them' }] } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
    { kind: 'tool_use', calls: [{ name: 'write_file', input: { path: RERUN_FILE, content: '# Notes\n\nLong notes, written by the first version.\n' } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'NOTES.md written' } }] },
    { kind: 'text', text: 'NOTES.md is written; shall I review it next?' },
  ],
};

export const twoTries: Scenario = {
  name: 'two-tries',
  description: 'The first reply, then a different one when retried.',
  onExhausted: 'echo',
  turns: [
    { kind: 'text', text: 'Red, green and blue.' },
    { kind: 'text', text: 'Cyan, magenta and yellow.' },
  ],
};

export const rerunScenarios: Scenario[] = [rerunPlan, twoTries];
