import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WaypointEvent } from '../../../shared/contract';
import type { CompactionItem } from '../../../shared/transcript';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';
import { isSummaryRequest, planningResponder, smallWindowModel, topicsIn, userMessage } from '../../../../test-support/main/long-chat-kit';
import { startInstance, type Instance } from '../../../../test-support/main/persistence-test-kit';
import { lastUserText } from '../../../../test-support/scripted-api/message-builder';
import type { ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import { startScriptedServer, type ScriptedServer } from '../../../../test-support/scripted-api/server';
import { countRequestTokens } from '../../../../test-support/scripted-api/token-count';
import { SAFETY_SHARE } from './context-budget';
import { estimateRequest } from './token-estimate';

// Issue 15, item 6: a 300-turn chat through the real SDK, the loop, the plan engine and the
// session log, against a model whose window is small enough to overflow many times. Every
// request fits, compaction happens, the plan survives, and after a restart the whole
// transcript is there and the next request still carries the summary.

const WINDOW = 9_000;
const TURNS = 300;

type Body = MessageCreateParamsBase;

/** Claude's planning calls at some turns (structured dialect); every other turn is a plain reply. */
const PLANNING: Record<number, ScriptedTurn[]> = {
  1: [
    { kind: 'tool_use', calls: [{ name: 'create_plan', input: { goal: 'Explain every topic', steps: [{ step_number: 1, description: 'Explain the first hundred topics' }, { step_number: 2, description: 'Explain the second hundred' }, { step_number: 3, description: 'Explain the rest' }] } }], delayMs: 0 },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }], delayMs: 0 },
  ],
  100: [
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'first hundred explained' } }], delayMs: 0 },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 2 } }], delayMs: 0 },
  ],
  200: [{ kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 2, result: 'second hundred explained' } }], delayMs: 0 }],
};

let server: ScriptedServer | undefined;
let instance: Instance | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await instance?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  instance = server = dataDir = undefined;
});

/** Waits for the run started after event index `from` to be idle again. */
async function idle(events: WaypointEvent[], sessionId: string, from: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  const isIdle = (e: WaypointEvent) => e.type === 'run_state' && e.sessionId === sessionId && e.state.status === 'idle';
  while (!events.slice(from).some(isIdle)) {
    if (Date.now() > deadline) throw new Error('the run did not finish');
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('a 300-turn chat in a small window', () => {
  it('fits every request, compacts, keeps the plan, and is whole after a restart', { timeout: 300_000 }, async () => {
    server = await startScriptedServer({ scenario: { name: 'long', turns: [] }, models: [smallWindowModel(WINDOW)], respond: planningResponder(PLANNING) });
    dataDir = mkdtempSync(join(tmpdir(), 'waypoint-long-chat-'));
    const settings = settingsSource({ planningStyle: 'structured', maxTokens: 8_192 });
    instance = await startInstance(dataDir, server.url, settings);
    const { id } = instance.chats.newSession();
    for (let n = 1; n <= TURNS; n++) {
      const from = instance.events.length;
      instance.chat.sendMessage(id, userMessage(n));
      await idle(instance.events, id, from);
    }
    const all = server.requests.map((r) => r.body as Body);
    const notices = instance.chats.wholeTranscript(id).filter((i) => i.kind === 'notice');
    expect(notices.filter((n) => n.kind === 'notice' && n.level !== 'info')).toEqual([]);

    // 1. Every request fit the window with room for its max_tokens, and none asked more than the cap.
    for (const body of all) {
      expect(countRequestTokens(body) + body.max_tokens).toBeLessThanOrEqual(WINDOW);
      expect(body.max_tokens).toBeLessThanOrEqual(1_024);
    }

    // 2. Compaction happened, many times, each marker in the transcript.
    const markers = instance.chats.wholeTranscript(id).filter((i): i is CompactionItem => i.kind === 'compaction');
    expect(markers.length).toBeGreaterThanOrEqual(10);

    // One summary request per compaction, or more when a stretch is summarised in pieces.
    expect(all.filter(isSummaryRequest).length).toBeGreaterThanOrEqual(markers.length);
    expect(markers.every((m, i) => i === 0 || m.upTo > markers[i - 1]!.upTo)).toBe(true);
    // The rolling summary still names the first topics at the end.
    expect(topicsIn(markers.at(-1)!.summary)).toEqual(expect.arrayContaining([1, 2, 50, 150]));

    // 3. The plan survived: the steps, statuses and versions Claude's calls made, and no others.
    const plan = instance.plans.getPlan(id)!;
    expect(plan.steps.map((s) => [s.title, s.status])).toEqual([
      ['Explain the first hundred topics', 'completed'],
      ['Explain the second hundred', 'completed'],
      ['Explain the rest', 'pending'],
    ]);
    const versions = instance.events.flatMap((e) => (e.type === 'plan_updated' ? [e.plan.version] : []));
    expect(versions).toEqual([1, 2, 3, 4, 5]);
    // Requests after a compaction carry the plan's state: every step, with its status.
    const lastChat = all.filter((b) => !isSummaryRequest(b)).at(-1)!;
    const tail = JSON.stringify(lastChat.messages.at(-1));
    expect(tail).toContain('[completed] 1. Explain the first hundred topics');
    expect(tail).toContain('[completed] 2. Explain the second hundred');
    expect(tail).toContain('[pending] 3. Explain the rest');
    expect(JSON.stringify(lastChat.messages[0])).toContain('<summary>');

    // 4. The measure before each request was within the safety share of what the server counted:
    // the estimate scaled by the previous reply's usage (what the loop does), request by request.
    const chats = all.filter((b) => !isSummaryRequest(b));
    let worstUnder = 0;
    for (let i = 1; i < chats.length; i++) {
      const prev = chats[i - 1]!;
      const ratio = Math.max(1, countRequestTokens(prev) / estimateRequest(prev));
      const predicted = Math.ceil(estimateRequest(chats[i]!) * ratio);
      worstUnder = Math.max(worstUnder, countRequestTokens(chats[i]!) - predicted);
    }
    expect(worstUnder).toBeLessThanOrEqual(WINDOW * SAFETY_SHARE);

    // 5. After a restart: the whole transcript, the compaction and the plan come back from the log.
    const before = { plan: instance.chats.getSession(id).plan, transcript: instance.chats.wholeTranscript(id) };
    const historyLength = instance.chats.sessionState(id)!.history.length;
    await instance.close();
    instance = await startInstance(dataDir, server.url, settings);
    const after = { plan: instance.chats.getSession(id).plan, transcript: instance.chats.wholeTranscript(id) };
    expect(after.transcript.filter((i) => i.kind === 'user')).toHaveLength(TURNS);
    expect(after.transcript.map((i) => i.id)).toEqual(before.transcript.map((i) => i.id));
    expect(after.transcript.find((i) => i.kind === 'user')).toMatchObject({ text: userMessage(1) });
    expect(after.plan).toEqual(before.plan);
    expect(instance.chats.sessionState(id)!.compaction?.id).toBe(markers.at(-1)!.id);
    expect(instance.chats.sessionState(id)!.history).toHaveLength(historyLength);

    const from = instance.events.length;
    const sent = server.requests.length;
    instance.chat.sendMessage(id, userMessage(TURNS + 1));
    await idle(instance.events, id, from);
    const next = server.requests.slice(sent).map((r) => r.body as Body).filter((b) => !isSummaryRequest(b)).at(-1)!;
    expect(countRequestTokens(next) + next.max_tokens).toBeLessThanOrEqual(WINDOW);
    expect(JSON.stringify(next.messages[0])).toContain('<summary>');
    expect(lastUserText(next.messages)).toContain(userMessage(TURNS + 1));
  });
});
