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

export const LOOSE_NEW_FILE = 'draft.txt';

/**
 * Changes made outside any plan: NOTES.md written and edited, draft.txt created, one command run,
 * over two of the user's turns; later messages are echoed. Tests put NOTES.md in the workspace.
 */
export const rerunLoose: Scenario = {
  name: 'rerun-loose',
  description: 'No plan: writes NOTES.md, runs a command, then (next message) edits NOTES.md and creates draft.txt; edit a message and put the files back.',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', text: 'Writing the notes.', calls: [{ name: 'write_file', input: { path: RERUN_FILE, content: '# Notes\n\nWritten without a plan.\n' } }] },
    { kind: 'tool_use', calls: [{ name: 'run_command', input: { command: 'echo checked' } }] },
    { kind: 'text', text: 'NOTES.md is written.' },
    { kind: 'tool_use', calls: [{ name: 'edit_file', input: { path: RERUN_FILE, old_text: 'Written without a plan.', new_text: 'Rewritten in the second turn.' } }] },
    { kind: 'tool_use', calls: [{ name: 'write_file', input: { path: LOOSE_NEW_FILE, content: 'a draft\n' } }] },
    { kind: 'text', text: 'NOTES.md is edited and draft.txt is there.' },
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

export const rerunScenarios: Scenario[] = [rerunPlan, rerunLoose, twoTries];
