/**
 * Tool results both sides must recognise: main sends them to Claude, the window words the
 * card by them ("cancelled" rather than "failed"), in logs old and new alike.
 */
export const QUESTION_CANCELLED =
  'The user pressed Stop instead of answering, so the question was cancelled. Do not ask again now: wait for their next message.';

/**
 * A call that changes things (a file tool, run_command, an MCP tool not marked read-only or
 * idempotent) cut off by a crash, a kill or Stop: Claude hears that nobody knows what it did.
 */
export const INTERRUPTED_EFFECT = 'Interrupted; its effect is unknown — check before retrying (it may have run in part or in full).';

/**
 * A running call's card while the chat's new worktree is still being checked out: the call waits
 * for the whole tree (main sets it as the card's result; the window shows it as the status).
 */
export const PREPARING_WORKTREE = 'Preparing worktree… (this call runs once the checkout is done)';

/** Why the same call, made again after such an interruption, asks the user whatever the settings say. */
export const REPEAT_AFTER_INTERRUPTION =
  'The same call was interrupted earlier in this chat and its effect is unknown, so running it again asks first.';

/** JSON with object keys sorted, so one call's input gives one key whatever order Claude wrote it in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A tool call's identity for "the same call again": its tool and its input (capped: a longer key only asks more often). */
export function callKey(name: string, input: unknown): string {
  return `${name} ${stableJson(input)}`.slice(0, 4000);
}
