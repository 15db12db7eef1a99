import type { Scenario, ScriptedTurn } from '../scripted-api/scenario';

/**
 * Seed P4-06's escalation pattern with real failing tool calls: step 1 edits notes.txt with an
 * old_text that is not in the file (not_found → refresh_context_and_retry), three times. With
 * maxRetries 2 the third failure pauses the run and asks the user. The workspace must hold
 * RECOVERY_FILE with RECOVERY_FILE_TEXT (tests write it) and edits must be auto-approved.
 * One scenario per answer, since what Claude does next depends on it.
 */

export const RECOVERY_FILE = 'notes.txt';
export const RECOVERY_FILE_TEXT = 'Hello wrld\nSecond line\n';
export const GUIDANCE_FIXED_TEXT = 'Hello world\nSecond line\n';

const wrongEdit = (attempt: number): ScriptedTurn => ({
  kind: 'tool_use',
  text: attempt === 1 ? 'Fixing the greeting.' : `Trying again (attempt ${attempt}).`,
  calls: [{ name: 'edit_file', input: { path: RECOVERY_FILE, old_text: 'Helo world', new_text: 'Hello world' } }],
});

const opening: ScriptedTurn[] = [
  {
    kind: 'tool_use',
    text: "I'll plan this.",
    calls: [
      {
        name: 'create_plan',
        input: {
          goal: 'Tidy notes.txt',
          steps: [
            { step_number: 1, description: 'Fix the greeting typo' },
            { step_number: 2, description: 'Check the second line' },
          ],
        },
      },
    ],
  },
  { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
  wrongEdit(1),
  wrongEdit(2),
  wrongEdit(3),
];

const secondStep: ScriptedTurn[] = [
  { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 2 } }] },
  { kind: 'tool_use', calls: [{ name: 'read_file', input: { path: RECOVERY_FILE } }] },
  { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 2, result: 'Second line is fine' } }] },
];

export const recoveryEscalationSkip: Scenario = {
  name: 'recovery-escalation-skip',
  description: 'Step 1 fails three times (edit_file not_found) → escalation; after "Skip step" Claude finishes step 2.',
  onExhausted: 'echo',
  turns: [...opening, ...secondStep, { kind: 'text', text: 'Step 1 was skipped as you asked; step 2 is done.' }],
};

export const recoveryEscalationGuidance: Scenario = {
  name: 'recovery-escalation-guidance',
  description: 'Step 1 fails three times → escalation; after guidance Claude edits the right text and finishes.',
  onExhausted: 'echo',
  turns: [
    ...opening,
    { kind: 'tool_use', text: 'Following your guidance.', calls: [{ name: 'edit_file', input: { path: RECOVERY_FILE, old_text: 'Hello wrld', new_text: 'Hello world' } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'Greeting fixed' } }] },
    ...secondStep,
    { kind: 'text', text: 'Thanks for the pointer: the greeting is fixed and step 2 is done.' },
  ],
};

export const recoveryEscalationAbort: Scenario = {
  name: 'recovery-escalation-abort',
  description: 'Step 1 fails three times → escalation; after "Abort plan" nothing more is requested until the user writes.',
  onExhausted: 'echo',
  turns: [...opening],
};

/** A 529 storm: three overloaded answers, then the real one (the loop rides it out). */
export const recoveryOverloadStorm: Scenario = {
  name: 'recovery-overload-storm',
  description: 'Three 529s in a row, then "The storm has passed: here is your answer."',
  onExhausted: 'echo',
  turns: [
    { kind: 'fault', fault: 'overloaded' },
    { kind: 'fault', fault: 'midstream_error', partialText: 'The storm has' },
    { kind: 'fault', fault: 'overloaded' },
    { kind: 'text', text: 'The storm has passed: here is your answer.' },
  ],
};

export const recoveryScenarios: Scenario[] = [recoveryEscalationSkip, recoveryEscalationGuidance, recoveryEscalationAbort, recoveryOverloadStorm];
