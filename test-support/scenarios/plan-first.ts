import type { Scenario, ScriptedToolCall, ScriptedTurn } from '../scripted-api/scenario';

/**
 * A whole task plan-first (issue 14): Claude reads, tries a change too early (refused by the tool
 * layer), proposes a plan, revises it after the user's feedback, works through it once approved,
 * follows a step the user added and moved up mid-run, pauses with steps left, and finishes after
 * "Continue plan". It needs "Plan first" on (the demo sets it, with file edits auto-approved) and
 * these files in the workspace; the e2e test drives the user's side with the §5 names.
 *
 * The user's side, in order: "Revise plan" with feedback after the first proposal; "Approve plan"
 * after the second; while Claude writes CHANGELOG.md (step 2), "Add step" "Mention the release in
 * README.md" and "Move up" on it (above the check); "Continue plan" when the plan pauses.
 */

export const PLAN_FIRST_FILES: Record<string, string> = {
  'version.txt': '1.0.0\n',
  'CHANGELOG.md': '# Changelog\n\n## 1.0.0\n\n- First release.\n',
  'README.md': '# Tally\n\nA small counter.\n',
};
export const PLAN_FIRST_ADDED_STEP = 'Mention the release in README.md';
export const PLAN_FIRST_FEEDBACK = 'Also write RELEASE_NOTES.md for the announcement.';

const plan = (steps: string[]) => ({
  name: 'create_plan',
  input: {
    goal: 'Release version 1.1.0',
    steps: steps.map((description, i) => ({
      step_number: i + 1,
      description,
      ...(i === steps.length - 1 ? { is_verification: true, success_criteria: 'version.txt says 1.1.0; the changelog has a 1.1.0 entry' } : {}),
    })),
    verification_approach: 'Read the files back',
  },
});
const act = (text: string | undefined, ...calls: ScriptedToolCall[]): ScriptedTurn => ({ kind: 'tool_use', ...(text ? { text } : {}), calls });
const update = (action: string, step: number, extra: Record<string, unknown> = {}): ScriptedToolCall => ({ name: 'update_plan', input: { action, step_number: step, ...extra } });
const write = (path: string, content: string): ScriptedToolCall => ({ name: 'write_file', input: { path, content } });

export const planFirst: Scenario = {
  name: 'plan-first',
  description: 'plan first: read, a refused early write, proposal, revision, approval, a user-added step followed, pause, continue',
  onExhausted: 'echo',
  turns: [
    act('Let me look at the current version first.', { name: 'read_file', input: { path: 'version.txt' } }),
    act('I will bump it right away.', write('version.txt', '1.1.0\n')),
    act('Right: this chat is plan-first, so here is my plan.', plan(['Bump version.txt to 1.1.0', 'Add a 1.1.0 entry to CHANGELOG.md', 'Check the files'])),
    { kind: 'text', text: 'That is my plan for the release. Approve it, or tell me what to change.' },
    act('Adding the release notes.', plan(['Bump version.txt to 1.1.0', 'Add a 1.1.0 entry to CHANGELOG.md', 'Write RELEASE_NOTES.md', 'Check the files'])),
    { kind: 'text', text: 'Revised: the release notes are step 3 now. Approve it when it looks right.' },
    act('Approved: starting with the version.', update('start_step', 1), write('version.txt', '1.1.0\n')),
    act(undefined, update('complete_step', 1, { result: 'version.txt says 1.1.0' }), update('start_step', 2), write('CHANGELOG.md', '# Changelog\n\n## 1.1.0\n\n- Counts down too.\n\n## 1.0.0\n\n- First release.\n')),
    act(undefined, update('complete_step', 2, { result: 'Changelog entry added' }), update('start_step', 3), write('RELEASE_NOTES.md', '# Tally 1.1.0\n\nTally counts down as well as up.\n')),
    act('Noted: you added a README step before the check; I will do it next.', update('complete_step', 3, { result: 'Release notes written' })),
    { kind: 'text', text: 'The release notes are written. Next come the README and the check: continue when you are ready.' },
    act('Updating the README.', update('start_step', 5), write('README.md', '# Tally\n\nA small counter. Version 1.1.0 counts down as well as up.\n')),
    act('Now the check.', update('complete_step', 5, { result: 'README mentions 1.1.0' }), update('start_step', 4), { name: 'read_file', input: { path: 'version.txt' } }),
    act(undefined, update('complete_step', 4, { result: 'version.txt says 1.1.0; changelog, notes and README are in place' })),
    act(undefined, {
      name: 'complete_plan',
      input: { status: 'success', summary: 'Released 1.1.0: version bumped, changelog entry, release notes and a README mention.', steps_completed: 5, issues_encountered: [] },
    }),
    { kind: 'text', text: 'Version 1.1.0 is ready: version.txt, CHANGELOG.md, RELEASE_NOTES.md and README.md are updated.' },
  ],
};
