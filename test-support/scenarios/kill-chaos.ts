import type { Scenario, ScriptedTurn } from '../scripted-api/scenario';

/**
 * Turns for the repeated-kill test: a seeded random mix that reaches every place a run can be
 * cut — a long stream, a command that runs for a second, a call that waits for approval, a
 * failing step that escalates, parallel calls — in any order, whatever state the chat is in
 * (a call that makes no sense now, like starting a step with no plan, is a tool error: fine).
 * Lane settings: an approval rule for `sleep 1`, autoApproveEdits, maxRetries 0, retryDelayMs 0.
 */
export const CHAOS_SETTINGS = {
  approvalRules: [{ id: 'chaos-sleep', tool: 'run_command', pattern: 'sleep 1', effect: 'allow' as const, createdAt: '2025-01-01T00:00:00.000Z' }],
  autoApproveEdits: true,
  maxRetries: 0,
  retryDelayMs: 0,
};
export const CHAOS_FILE = 'notes.txt';

/** A small deterministic PRNG (mulberry32), so a failing seed can be replayed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const longText = (n: number): string =>
  Array.from({ length: n }, (_, i) => `Sentence ${i + 1} of a long answer that streams slowly.`).join(' ');

const blocks: Array<() => ScriptedTurn[]> = [
  () => [{ kind: 'text', text: longText(12), chunkChars: 4, delayMs: 6 }],
  () => [{ kind: 'tool_use', text: 'Running a slow command.', calls: [{ name: 'run_command', input: { command: 'sleep 1' } }] }],
  () => [{ kind: 'tool_use', text: 'This one needs your approval.', calls: [{ name: 'run_command', input: { command: 'echo approved-call' } }] }],
  () => [
    { kind: 'tool_use', text: 'Two things at once.', calls: [{ name: 'run_command', input: { command: 'sleep 1' } }, { name: 'read_file', input: { path: CHAOS_FILE } }] },
  ],
  () => [
    {
      kind: 'tool_use',
      text: "I'll plan this.",
      calls: [{ name: 'create_plan', input: { goal: 'Tidy the notes', steps: [{ step_number: 1, description: 'Fix the greeting' }, { step_number: 2, description: 'Check the rest' }] } }],
    },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
    // old_text is not in the file: not_found, and with maxRetries 0 the step escalates at once.
    { kind: 'tool_use', text: 'Fixing the greeting.', calls: [{ name: 'edit_file', input: { path: CHAOS_FILE, old_text: 'Helo world', new_text: 'Hello world' } }] },
  ],
  () => [{ kind: 'tool_use', text: 'Streaming, then a write.', chunkChars: 3, delayMs: 6, calls: [{ name: 'write_file', input: { path: 'out.txt', content: 'written\n' } }] }],
  () => [{ kind: 'text', text: 'Done for now.' }],
];

export function killChaos(seed: number, turns = 600): Scenario {
  const random = rng(seed);
  const list: ScriptedTurn[] = [];
  while (list.length < turns) list.push(...blocks[Math.floor(random() * blocks.length)]!());
  return { name: `kill-chaos-${seed}`, description: 'Random turns for the repeated-kill test.', onExhausted: 'echo', turns: list };
}
