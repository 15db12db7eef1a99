import type { Scenario, ScriptedToolCall, ScriptedTurn } from '../scripted-api/scenario';

/**
 * Seed P4-06's recovery patterns with real tool failures in a real workspace, and a plan whose
 * file changes "Undo plan" takes back. Tests put the *_FILES in the workspace and auto-approve
 * edits. Each turn answers one request, in order.
 */

const call = (name: string, input: unknown): ScriptedToolCall => ({ name, input });
const tool = (c: ScriptedToolCall, text?: string): ScriptedTurn => ({ kind: 'tool_use', text, calls: [c] });
const plan = (goal: string, ...titles: string[]): ScriptedTurn =>
  tool(call('create_plan', { goal, steps: titles.map((description, i) => ({ step_number: i + 1, description })) }), "I'll plan this.");
const start = (step: number): ScriptedTurn => tool(call('update_plan', { action: 'start_step', step_number: step }));
const complete = (step: number, result: string): ScriptedTurn =>
  tool(call('update_plan', { action: 'complete_step', step_number: step, result }));

// Pattern 1, parameter retry: a line range starting at 0 (invalid_parameter) → the hint says
// how to fix the range → the modified call reads lines 1–2.
export const PARAMETER_FILES = { 'report.txt': 'Summary: all green\nDetails: 3 checks passed\nFooter\n' };

export const recoveryParameterRetry: Scenario = {
  name: 'recovery-parameter-retry',
  description: 'read_file with start_line 0 fails (invalid_parameter); the retry with start_line 1 succeeds; the plan goes on.',
  onExhausted: 'echo',
  turns: [
    plan('Summarise report.txt', "Read the report's first two lines", 'Report the summary'),
    start(1),
    tool(call('read_file', { path: 'report.txt', start_line: 0, end_line: 2 }), 'Reading the top of the report.'),
    tool(call('read_file', { path: 'report.txt', start_line: 1, end_line: 2 }), 'Lines count from 1: reading lines 1–2.'),
    complete(1, 'Summary: all green'),
    start(2),
    complete(2, 'Reported'),
    { kind: 'text', text: 'The report says: all green, 3 checks passed.' },
  ],
};

// Pattern 2, context refresh: the file Claude remembers is not there (not_found) → the hint
// says to list before retrying → list_directory shows the real name → read it.
export const CONTEXT_FILES = { 'app-settings.json': '{"theme":"dark"}\n' };

export const recoveryContextRefresh: Scenario = {
  name: 'recovery-context-refresh',
  description: 'read_file of a missing settings.json fails (not_found); Claude lists the folder, reads app-settings.json and finishes.',
  onExhausted: 'echo',
  turns: [
    plan('Check the theme setting', 'Read the settings file', 'Report the theme'),
    start(1),
    tool(call('read_file', { path: 'settings.json' }), 'Opening the settings.'),
    tool(call('list_directory', { path: '.' }), 'It is not there; listing the workspace first.'),
    tool(call('read_file', { path: 'app-settings.json' })),
    complete(1, 'theme is dark'),
    start(2),
    complete(2, 'Reported'),
    { kind: 'text', text: 'The theme is set to dark (in app-settings.json).' },
  ],
};

// Undo plan: step 1 edits a file that was there before; step 2 creates one and edits the first
// again. The run ends with step 3 still pending, so the plan (and its panel) stays active.
export const UNDO_EDITED = 'config.txt';
export const UNDO_EDITED_TEXT = 'port=8080\nmode=debug\n';
export const UNDO_EDITED_AFTER = 'port=443\nmode=production\n';
export const UNDO_CREATED = 'CHANGELOG.md';
export const UNDO_CREATED_TEXT = '# 1.0.0\n- Production config\n';
export const UNDO_FILES = { [UNDO_EDITED]: UNDO_EDITED_TEXT };

export const recoveryUndoPlan: Scenario = {
  name: 'recovery-undo-plan',
  description: 'A plan edits config.txt and creates CHANGELOG.md, then waits before its last step (for "Undo plan").',
  onExhausted: 'echo',
  turns: [
    plan('Prepare the 1.0 release', 'Switch the config to production', 'Write the changelog', 'Tag the release'),
    start(1),
    tool(call('edit_file', { path: UNDO_EDITED, old_text: 'mode=debug', new_text: 'mode=production' })),
    complete(1, 'mode=production'),
    start(2),
    tool(call('write_file', { path: UNDO_CREATED, content: UNDO_CREATED_TEXT })),
    tool(call('edit_file', { path: UNDO_EDITED, old_text: 'port=8080', new_text: 'port=443' }), 'Production listens on 443.'),
    complete(2, 'CHANGELOG.md written'),
    { kind: 'text', text: 'Config and changelog are ready. Shall I tag the release (step 3)?' },
  ],
};

export const recoveryPatternScenarios: Scenario[] = [recoveryParameterRetry, recoveryContextRefresh, recoveryUndoPlan];
