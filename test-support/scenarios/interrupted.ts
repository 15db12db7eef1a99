import type { Scenario } from '../scripted-api/scenario';

/**
 * A command that runs long enough to be stopped mid-way, then (next message) the same call again
 * and a different one: only the same call asks after the interruption.
 */
export const SLOW_COMMAND = 'sleep 30';

export const interruptedCommand: Scenario = {
  name: 'interrupted-command',
  description: 'Runs `sleep 30` (stop it); next message: the same command again, then `echo other`.',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', text: 'Running the slow step.', calls: [{ name: 'run_command', input: { command: SLOW_COMMAND } }] },
    { kind: 'tool_use', text: 'Trying again.', calls: [{ name: 'run_command', input: { command: SLOW_COMMAND } }] },
    { kind: 'text', text: 'Done.' },
  ],
};

export const otherCommandAfterInterruption: Scenario = {
  name: 'other-command',
  description: 'Runs `sleep 30` (stop it); next message: a different command, which runs unasked.',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', calls: [{ name: 'run_command', input: { command: SLOW_COMMAND } }] },
    { kind: 'tool_use', calls: [{ name: 'run_command', input: { command: 'echo other' } }] },
    { kind: 'text', text: 'Done.' },
  ],
};
