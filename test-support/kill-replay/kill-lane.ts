/**
 * One lane of the repeated-kill test (src/main/sessions/kill-replay.test.ts, bench/kill-replay.ts):
 * ONE chat in one data folder, SIGKILLed again and again at a chosen point of its run — while a
 * reply streams, while a command runs, while an approval or an escalation waits — and restarted
 * each time. After every restart the lane does what a person would (answer the question that
 * came back, press Resume, or write again), so the app sends the replayed history to the
 * scripted server, which validates it like the real API. Every refusal is an invalid history.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WaypointEvent } from '../../src/shared/contract';
import { appendUserText, closeOpenToolUses } from '../../src/main/chats/api-history';
import { checkLogs, kill, launch, type RunningShell } from '../main/kill-harness';
import { restoreChat } from '../../src/main/store/restore-chat';
import { CHAOS_FILE, CHAOS_SETTINGS, killChaos, rng } from '../scenarios/kill-chaos';
import { checkRequest } from '../scripted-api/request-checks';
import type { ScriptedServer } from '../scripted-api/server';

export const KILL_POINTS = ['streaming', 'tool_running', 'approval_pending', 'escalation_pending', 'anytime'] as const;
export type KillPoint = (typeof KILL_POINTS)[number];
type Action = 'first_message' | 'approve' | 'deny' | 'skip' | 'guidance' | 'abort' | 'resume' | 'message' | 'edit' | 'retry' | 'version';

export interface LaneOptions {
  dataDir: string;
  workspace: string;
  webJs: string;
  server: ScriptedServer;
  apiKey: string;
  kills: number;
  seed: number;
  /** How long to wait for the chosen point before killing anyway. */
  pointTimeoutMs?: number;
}

export interface LaneResult {
  kills: number;
  /** Which point each kill actually hit ('idle': the run ended before it got there). */
  hits: Record<KillPoint | 'idle' | 'missed', number>;
  actions: Partial<Record<Action, number>>;
  /** Requests the app sent after a restart, all validated by the server. */
  requests: number;
  /** Requests the server refused as invalid, plus replayed histories that failed the same check in-process. */
  invalid: string[];
  /** Calls refused by the app (e.g. busy): should be none. */
  refusals: string[];
  /** Log problems found by checkLogs (anything but a torn last line). */
  logProblems: string[];
}

const MODEL = 'claude-sonnet-4-5';

function since(shell: RunningShell, from: number, sessionId: string): WaypointEvent[] {
  return shell.events.slice(from).filter((e) => ('sessionId' in e ? e.sessionId === sessionId : false));
}

function reached(events: WaypointEvent[], point: KillPoint): boolean {
  switch (point) {
    case 'streaming':
      return events.some((e) => e.type === 'message_delta');
    case 'tool_running':
      return events.some((e) => e.type === 'transcript_item' && e.item.kind === 'tool_call' && e.item.status === 'running');
    case 'approval_pending':
      return events.some((e) => e.type === 'approval_requested');
    case 'escalation_pending':
      return events.some((e) => e.type === 'escalation_requested');
    case 'anytime':
      return false;
  }
}

const idleNow = (events: WaypointEvent[]): boolean => {
  const last = events.filter((e) => e.type === 'run_state').at(-1);
  return last?.type === 'run_state' && last.state.status === 'idle';
};

async function waitForPoint(shell: RunningShell, from: number, sessionId: string, point: KillPoint, random: () => number, timeoutMs: number): Promise<KillPoint | 'idle' | 'missed'> {
  if (point === 'anytime') {
    await new Promise((r) => setTimeout(r, Math.floor(random() * 1000)));
    return 'anytime';
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const events = since(shell, from, sessionId);
    if (reached(events, point)) {
      // Somewhere inside that state, not always at its first instant.
      await new Promise((r) => setTimeout(r, Math.floor(random() * 40)));
      return point;
    }
    if (idleNow(events)) return 'idle';
    await new Promise((r) => setTimeout(r, 5));
  }
  return 'missed';
}

interface Tag {
  index: number;
  count: number;
}
interface SessionView {
  session: { interrupted?: boolean };
  transcript: Array<{ id: string; kind: string; version?: Tag; replies?: Tag }>;
  pendingApproval?: { id: string } | null;
  pendingEscalation?: { id: string } | null;
}

/** What a person does when the chat comes back. Returns the action taken. */
async function act(shell: RunningShell, sessionId: string, random: () => number): Promise<Action> {
  const view = (await shell.call('getSession', { sessionId })) as SessionView;
  if (view.pendingApproval) {
    const decision = random() < 0.7 ? 'approve' : 'deny';
    await shell.call('answerApproval', { sessionId, requestId: view.pendingApproval.id, decision });
    return decision;
  }
  if (view.pendingEscalation) {
    const roll = random();
    const answer = roll < 0.45 ? { kind: 'skip' } : roll < 0.9 ? { kind: 'guidance', text: 'Read the file first, then edit what is there.' } : { kind: 'abort' };
    await shell.call('answerEscalation', { sessionId, requestId: view.pendingEscalation.id, answer });
    return answer.kind as Action;
  }
  // Instead of Resume, a person may as well edit, retry or look at another version.
  const versioned = await versionAction(shell, sessionId, view, random);
  if (versioned) return versioned;
  if (view.session.interrupted) {
    const { started } = (await shell.call('retryRun', { sessionId })) as { started: boolean };
    if (started) return 'resume';
  }
  await shell.call('sendMessage', { sessionId, text: 'Keep going with the notes, please.' });
  return 'message';
}

/**
 * Now and then an edit, a retry or another version shown (versions in place, chats/chat-versions.ts),
 * so kills also land while versions are kept and swapped; null when none applies this time.
 */
async function versionAction(shell: RunningShell, sessionId: string, view: SessionView, random: () => number): Promise<Action | null> {
  const roll = random();
  if (roll >= 0.3) return null;
  const users = view.transcript.filter((i) => i.kind === 'user');
  if (users.length === 0) return null;
  if (roll < 0.1) {
    const user = users[Math.floor(random() * users.length)]!;
    await shell.call('editMessage', { sessionId, itemId: user.id, text: 'Tidy up notes.txt again, one step at a time.' });
    return 'edit';
  }
  const last = view.transcript.findLastIndex((i) => i.kind === 'user');
  if (roll < 0.2 && view.transcript.slice(last + 1).some((i) => i.kind === 'assistant' || i.kind === 'tool_call')) {
    await shell.call('retryReply', { sessionId });
    return 'retry';
  }
  const tagged = users.flatMap((u) => [
    ...(u.version && u.version.count > 1 ? [{ id: u.id, of: 'message', tag: u.version }] : []),
    ...(u.replies && u.replies.count > 1 ? [{ id: u.id, of: 'reply', tag: u.replies }] : []),
  ]);
  const pick = tagged[Math.floor(random() * tagged.length)];
  if (!pick) return null;
  const index = (pick.tag.index + 1 + Math.floor(random() * (pick.tag.count - 1))) % pick.tag.count;
  await shell.call('showVersion', { sessionId, itemId: pick.id, of: pick.of, index });
  // The version shown goes on, so the kill lands in its run.
  await shell.call('sendMessage', { sessionId, text: 'Keep going with the notes, please.' });
  return 'version';
}

/**
 * The history the app would send next, rebuilt from the log alone (as start-up does) and
 * completed the way the next action completes it; checked with the server's own rules.
 */
function replayedHistoryProblem(dataDir: string, sessionId: string): string | null {
  const log = checkLogs(dataDir).find((l) => l.id === sessionId);
  if (!log?.chat) return 'the chat could not be rebuilt from its log';
  const { session } = restoreChat(log.chat);
  const history = structuredClone([...session.history]);
  if (history.length === 0) return null;
  // A pending question is answered (its open calls get results); anything else is followed by a message.
  closeOpenToolUses(history, 'answered');
  if (history.at(-1)?.role === 'assistant') appendUserText(history, 'Keep going');
  const problem = checkRequest({ model: MODEL, max_tokens: 1024, messages: history });
  return problem ? `replayed history: ${problem}` : null;
}

export async function runKillLane(options: LaneOptions): Promise<LaneResult> {
  const random = rng(options.seed);
  const result: LaneResult = {
    kills: 0,
    hits: { streaming: 0, tool_running: 0, approval_pending: 0, escalation_pending: 0, anytime: 0, idle: 0, missed: 0 },
    actions: {},
    requests: 0,
    invalid: [],
    refusals: [],
    logProblems: [],
  };
  mkdirSync(options.dataDir, { recursive: true });
  writeFileSync(join(options.workspace, CHAOS_FILE), 'Hello wrld\nSecond line\n');
  options.server.setScenario(killChaos(options.seed));
  const requestsBefore = options.server.requests.length;
  const invalidBefore = options.server.invalid.length;
  let sessionId: string | null = null;

  // `kills` kills, then one last start whose action's request is validated too.
  for (let round = 0; round <= options.kills; round++) {
    const shell = await launch(options.dataDir, options.workspace, options.server.url, options.apiKey, options.webJs);
    try {
      const from = shell.events.length;
      let action: Action;
      if (sessionId === null) {
        await shell.call('setSettings', { patch: CHAOS_SETTINGS });
        sessionId = ((await shell.call('newSession', {})) as { id: string }).id;
        await shell.call('sendMessage', { sessionId, text: 'Tidy up notes.txt, step by step.' });
        action = 'first_message';
      } else {
        try {
          action = await act(shell, sessionId, random);
        } catch (error) {
          result.refusals.push(`round ${round}: ${(error as Error).message}`);
          continue;
        }
      }
      result.actions[action] = (result.actions[action] ?? 0) + 1;
      if (round === options.kills) {
        // The last start: let the action's request reach the server, then stop.
        const before = options.server.requests.length;
        const deadline = Date.now() + 10_000;
        while (options.server.requests.length === before && Date.now() < deadline && !idleNow(since(shell, from, sessionId))) await new Promise((r) => setTimeout(r, 10));
        break;
      }
      const point = KILL_POINTS[Math.floor(random() * KILL_POINTS.length)]!;
      const hit = await waitForPoint(shell, from, sessionId, point, random, options.pointTimeoutMs ?? 2000);
      result.hits[hit]++;
    } finally {
      await kill(shell);
      if (process.env.WAYPOINT_KILL_KEEP) appendFileSync(join(options.dataDir, 'shells.log'), `===== round ${round} pid ${shell.child.pid} ${new Date().toISOString()}\n${shell.output()}\n`);
    }
    if (round < options.kills) {
      result.kills++;
      const problem = replayedHistoryProblem(options.dataDir, sessionId!);
      if (problem) result.invalid.push(`kill ${round + 1}: ${problem}`);
    }
  }
  result.requests = options.server.requests.length - requestsBefore;
  for (const refused of options.server.invalid.slice(invalidBefore)) result.invalid.push(`server refused a request: ${refused.message}`);
  if (process.env.WAYPOINT_KILL_KEEP) writeFileSync(join(options.dataDir, 'refused.json'), JSON.stringify(options.server.invalid.slice(invalidBefore), null, 1));
  for (const log of checkLogs(options.dataDir)) for (const problem of log.problems) result.logProblems.push(`${log.id}: ${problem}`);
  return result;
}

/** Sums lanes for a report line. */
export function sumLanes(lanes: LaneResult[]): Omit<LaneResult, 'actions'> & { actions: Record<string, number> } {
  const total = { kills: 0, hits: { streaming: 0, tool_running: 0, approval_pending: 0, escalation_pending: 0, anytime: 0, idle: 0, missed: 0 }, actions: {} as Record<string, number>, requests: 0, invalid: [] as string[], refusals: [] as string[], logProblems: [] as string[] };
  for (const lane of lanes) {
    total.kills += lane.kills;
    total.requests += lane.requests;
    for (const [k, v] of Object.entries(lane.hits)) total.hits[k as keyof typeof total.hits] += v;
    for (const [k, v] of Object.entries(lane.actions)) total.actions[k] = (total.actions[k] ?? 0) + (v ?? 0);
    total.invalid.push(...lane.invalid);
    total.refusals.push(...lane.refusals);
    total.logProblems.push(...lane.logProblems);
  }
  return total;
}
