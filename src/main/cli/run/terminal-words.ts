/**
 * The app's notices name its buttons ("Retry now", Settings); a terminal has neither. These say
 * what to do there instead. Only what `waypoint run` prints is rewritten: the chat's log keeps
 * the app's words, since the app shows that chat too.
 */
const IN_A_TERMINAL: readonly [app: string, terminal: string][] = [
  ['press "Retry now" to send it again, or write another message.', 'run the "Continue with" command below to send it again.'],
  ['Open Settings and paste a valid key.', 'Set ANTHROPIC_API_KEY to a valid key and run the "Continue with" command below.'],
];

/** A notice's text as a terminal user can act on it. */
export function inTerminalWords(text: string): string {
  return IN_A_TERMINAL.reduce((out, [app, terminal]) => out.split(app).join(terminal), text);
}

/**
 * How the commands Waypoint prints start: `npm ci` puts no `waypoint` on PATH, but npx finds the
 * project's own bin (package.json "bin") from inside the checkout.
 */
export const WAYPOINT_COMMAND = 'npx waypoint';

/** "completed", or "completed, 2 steps skipped": a plan with skipped steps is not simply complete. */
export function completedWords(skipped: number): string {
  return skipped > 0 ? `completed, ${skipped} step${skipped === 1 ? '' : 's'} skipped` : 'completed';
}
