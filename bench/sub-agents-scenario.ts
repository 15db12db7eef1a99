import type { ScriptedToolCall, ScriptedTurn } from '../test-support/scripted-api/scenario';
import { longReply } from './streaming-text';

/**
 * What the sub-agents of bench/sub-agents.ts are told to say. The scripted server answers by
 * reading the request (`respond`): who asks is the start of its first user message (the chat's
 * message, or a sub-agent's task), and the reply's number is the count of assistant messages in
 * it, so agents running at once can interleave in any order and each still gets its own script.
 */
type Body = { messages?: Array<{ role?: string; content?: string | Array<{ type?: string; text?: string }> }> };

export interface Asked {
  /** The start of its first user message: the chat's message or the sub-agent's task. */
  who: string;
  /** How many replies it had before this one. */
  reply: number;
}

export function asked(raw: Record<string, unknown>): Asked {
  const messages = (raw as Body).messages ?? [];
  const first = messages[0]?.content;
  const who = typeof first === 'string' ? first : (first?.find((b) => b.type === 'text')?.text ?? '');
  return { who, reply: messages.filter((m) => m.role === 'assistant').length };
}

const INSTANT = { delayMs: 0, chunkChars: 100_000 };
const calls = (...list: ScriptedToolCall[]): ScriptedTurn => ({ kind: 'tool_use', calls: list, ...INSTANT });
const call = (name: string, input: unknown): ScriptedToolCall => ({ name, input });
const createPlan = (goal: string, titles: string[]) => call('create_plan', { goal, steps: titles.map((description, i) => ({ step_number: i + 1, description })) });
const start = (n: number) => call('update_plan', { action: 'start_step', step_number: n });
const complete = (n: number) => call('update_plan', { action: 'complete_step', step_number: n, result: 'done' });
const said = (text: string): ScriptedTurn => ({ kind: 'text', text, ...INSTANT });
/** The chat's own run: one step, in which its delegate calls run (so the groups sit under it). */
function parentTurn(reply: number, tasks: string[], goal: string): ScriptedTurn {
  return (
    [
      calls(createPlan(goal, ['Hand out the work'])),
      calls(start(1)),
      calls(...tasks.map((task) => call('delegate', { task }))),
      calls(complete(1)),
      said('Every sub-agent is done.'),
    ][reply] ?? said('Nothing more.')
  );
}

/** Part 1: three sub-agents of the chat in view, each streaming long replies while working a plan. */
export interface StreamingScript {
  agents: number;
  steps: number;
  tokensPerReply: number;
  chunkChars: number;
  delayMs: number;
}
export const STREAMING_MESSAGE = 'Stream with three sub-agents please';
export const streamingTask = (agent: number): string => `Stream ${String.fromCharCode(65 + agent)}: write the loader notes`;
/** The text of a streaming sub-agent's reply `reply` (1-based steps): distinct per agent and reply. */
export const streamingText = (script: StreamingScript, agent: number, reply: number): string => `${streamingTask(agent)}, reply ${reply}.\n\n${longReply(script.tokensPerReply)}`;

export function streamingTurn(script: StreamingScript, raw: Record<string, unknown>): ScriptedTurn {
  const { who, reply } = asked(raw);
  const tasks = Array.from({ length: script.agents }, (_, a) => streamingTask(a));
  if (who.startsWith(STREAMING_MESSAGE)) return parentTurn(reply, tasks, 'Fan out');
  const agent = tasks.findIndex((task) => who.startsWith(task));
  if (agent < 0) return said(`nobody scripted for ${who.slice(0, 60)}`);
  if (reply === 0) return calls(createPlan(`Notes ${agent}`, Array.from({ length: script.steps }, (_, i) => `Stream ${agent} step ${i + 1}`)));
  if (reply <= script.steps) return { kind: 'tool_use', text: streamingText(script, agent, reply), calls: [start(reply), complete(reply)], chunkChars: script.chunkChars, delayMs: script.delayMs };
  return said(`${tasks[agent]}: done.`);
}

/** Part 2: a tree of `width` sub-agents of the chat, each handing out `width` leaves that work a plan of `steps` steps, a step a reply. */
export interface TreeScript {
  width: number;
  steps: number;
}
export const TREE_MESSAGE = 'Build the tree of sub-agents please';
const midTask = (m: number): string => `Mid ${String.fromCharCode(65 + m)}: split the work`;
export const leafTask = (m: number, l: number): string => `Leaf ${String.fromCharCode(65 + m)}${l + 1}: count the notes`;

/** The leaf a request is from, and its reply's number; null for the chat and the middle agents. */
export function leafOf(script: TreeScript, raw: Record<string, unknown>): { leaf: string; reply: number } | null {
  const { who, reply } = asked(raw);
  for (let m = 0; m < script.width; m++) for (let l = 0; l < script.width; l++) if (who.startsWith(leafTask(m, l))) return { leaf: leafTask(m, l), reply };
  return null;
}

export function treeTurn(script: TreeScript, raw: Record<string, unknown>): ScriptedTurn {
  const { who, reply } = asked(raw);
  const mids = Array.from({ length: script.width }, (_, m) => midTask(m));
  if (who.startsWith(TREE_MESSAGE)) return parentTurn(reply, mids, 'Grow the tree');
  const mid = mids.findIndex((task) => who.startsWith(task));
  if (mid >= 0) return reply === 0 ? calls(...Array.from({ length: script.width }, (_, l) => call('delegate', { task: leafTask(mid, l) }))) : said(`${mids[mid]}: done.`);
  const leaf = leafOf(script, raw);
  if (!leaf) return said(`nobody scripted for ${who.slice(0, 60)}`);
  if (reply === 0) return calls(createPlan(leaf.leaf, Array.from({ length: script.steps }, (_, i) => `${leaf.leaf.slice(0, 7)} step ${i + 1}`)));
  // Reply k starts and completes step k: after it the leaf's group shows k steps completed.
  if (reply <= script.steps) return calls(start(reply), complete(reply));
  return said(`${leaf.leaf}: done.`);
}
