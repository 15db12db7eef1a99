import type { Scenario } from '../scripted-api/scenario';

/**
 * A chat that changes its workspace both ways Changes must see: write_file on NOTES.md (which
 * tests commit in the repository first) and a command that creates by-command.txt. Later
 * messages are echoed.
 */
export const WORKTREE_NOTES = 'NOTES.md';
export const WORKTREE_NOTES_TEXT = '# Notes\n';
export const WORKTREE_NOTES_WRITTEN = '# Notes\n\nWritten in the worktree.\n';
export const BY_COMMAND = 'by-command.txt';

export const worktreeChat: Scenario = {
  name: 'worktree-chat',
  description: 'Writes NOTES.md and runs a command that creates by-command.txt; then echoes.',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', text: 'Writing the notes.', calls: [{ name: 'write_file', input: { path: WORKTREE_NOTES, content: WORKTREE_NOTES_WRITTEN } }] },
    { kind: 'tool_use', calls: [{ name: 'run_command', input: { command: `echo made > ${BY_COMMAND}` } }] },
    { kind: 'text', text: 'Done.' },
  ],
};
