import type { Dialect } from '../../../../shared/plan';

/** The planning dialects of docs/contract.md §2, in words a user can choose between. */
export const PLANNING_STYLES: Array<{ value: Dialect; label: string; description: string }> = [
  { value: 'structured', label: 'Structured', description: 'Steps with dependencies, success criteria and a completion summary (default).' },
  { value: 'checklist', label: 'Checklist', description: 'A short list of up to 12 steps, rewritten whole on every update.' },
  { value: 'wbs', label: 'Work breakdown (WBS)', description: "A hierarchical breakdown, also written to WBS.md in the chat's workspace folder (in Waypoint's data folder for a chat without one)." },
  { value: 'session', label: 'Session', description: 'Steps with stable numbers that Claude sets up, updates and reads back.' },
];
