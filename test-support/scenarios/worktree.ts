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

/** A plain folder (no worktree) a command changes three ways: KEPT gets a line, GONE is deleted, MADE is created. */
export const PLAIN_KEPT = 'kept.md';
export const PLAIN_KEPT_TEXT = 'one\ntwo\n';
export const PLAIN_GONE = 'gone.md';
export const PLAIN_GONE_TEXT = 'bye\nbye\n';
export const PLAIN_MADE = 'made.txt';

export const plainFolderCommand: Scenario = {
  name: 'plain-folder-command',
  description: 'Runs one command that appends to kept.md, deletes gone.md and creates made.txt; then echoes.',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', text: 'Tidying up.', calls: [{ name: 'run_command', input: { command: `echo three >> ${PLAIN_KEPT} && rm ${PLAIN_GONE} && printf 'a\\nb\\n' > ${PLAIN_MADE}` } }] },
    { kind: 'text', text: 'Done.' },
  ],
};
