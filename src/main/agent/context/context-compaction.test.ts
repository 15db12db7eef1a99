import { afterEach, describe, expect, it } from 'vitest';
import type { WaypointEvent } from '../../../shared/contract';
import type { CompactionItem, NoticeItem } from '../../../shared/transcript';
import { closeAll, startChat, testTool } from '../../../../test-support/main/chat-test-setup';
import { isSummaryRequest, longChatResponder, smallWindowModel, topicsIn, userMessage } from '../../../../test-support/main/long-chat-kit';
import type { ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import { countRequestTokens } from '../../../../test-support/scripted-api/token-count';
import { lastUserText } from '../../../../test-support/scripted-api/message-builder';
import { ok } from '../../tools/tool';
import { SUMMARY_REQUEST_MARK } from './compaction-summary';

// Loop integration (real SDK, scripted server): the chosen model's window and output cap hold
// for every request, the chat's own and the summary requests (docs/contract.md §5, "Model and its
// window", "Compaction").
afterEach(closeAll);

type Body = { model: string; max_tokens: number; messages: { role: string; content: unknown }[] };
const bodies = (server: { requests: { body: unknown }[] }) => server.requests.map((r) => r.body as Body);
const chatBodies = (server: { requests: { body: unknown }[] }) => bodies(server).filter((b) => !isSummaryRequest(b));
const itemsOf = <K extends string>(events: WaypointEvent[], kind: K) =>
  events.flatMap((e) => (e.type === 'transcript_item' && e.item.kind === kind ? [e.item] : [])) as Extract<WaypointEvent, { type: 'transcript_item' }>['item'][];
const compactions = (events: WaypointEvent[]) => itemsOf(events, 'compaction') as CompactionItem[];
const errors = (events: WaypointEvent[]) => (itemsOf(events, 'notice') as NoticeItem[]).filter((n) => n.level === 'error');

/** A plan made in the first turn (make_plan), then the long-chat replies. */
function planThenTalk(): (body: Record<string, unknown>) => ScriptedTurn {
  let planned = false;
  return (body) => {
    if (!planned && !isSummaryRequest(body)) {
      planned = true;
      return { kind: 'tool_use', calls: [{ name: 'make_plan', input: { steps: ['Collect the topics', 'Explain each topic', 'Sum up'] } }], delayMs: 0 };
    }
    return longChatResponder(body);
  };
}

async function talk(chat: Awaited<ReturnType<typeof startChat>>, from: number, to: number): Promise<void> {
  for (let n = from; n <= to; n++) {
    const mark = chat.recorder.events.length;
    chat.service.sendMessage(chat.session.id, userMessage(n));
    await chat.recorder.idle(chat.session.id, mark);
  }
}

describe("the chosen model's limits", () => {
  it("no request asks for more output than the model's cap, the summary request included", async () => {
    const chat = await startChat({ name: 'cap', turns: [] }, { settings: { maxTokens: 8_192 }, server: { models: [smallWindowModel(6_000, 1_024)], respond: longChatResponder } });
    await talk(chat, 1, 30);
    expect(compactions(chat.recorder.events).length).toBeGreaterThan(0);
    for (const body of bodies(chat.server)) expect(body.max_tokens).toBeLessThanOrEqual(1_024);
    expect(chatBodies(chat.server)[0]!.max_tokens).toBe(1_024);
    expect(errors(chat.recorder.events)).toEqual([]);
  });

  it('"Max model turns" pauses a tool loop at the setting, with a notice that names it', async () => {
    const loop: ScriptedTurn = { kind: 'tool_use', calls: [{ name: 'probe', input: { q: 'again' } }], delayMs: 0 };
    const chat = await startChat({ name: 'turns', turns: [loop, loop, loop, loop] }, { settings: { maxModelTurns: 3 }, tools: [testTool('probe', async () => ok('probed'))] });
    chat.service.sendMessage(chat.session.id, 'Loop for a while.');
    await chat.recorder.idle(chat.session.id, 0);
    expect(chat.server.requests).toHaveLength(3);
    const notice = (itemsOf(chat.recorder.events, 'notice') as NoticeItem[]).find((n) => n.code === 'turn_limit');
    expect(notice?.text).toContain('Claude used 3 model turns in one go (the "Max model turns" setting)');
  });
});

describe('compaction before a request would pass the window', () => {
  it('compacts the older turns: every request fits, later ones carry the summary, the plan and the recent turns verbatim', { timeout: 60_000 }, async () => {
    const window = 6_000;
    const chat = await startChat({ name: 'long', turns: [] }, { server: { models: [smallWindowModel(window, 1_024)], respond: planThenTalk() } });
    await talk(chat, 1, 60);
    const events = chat.recorder.events;
    expect(errors(events)).toEqual([]);

    // Every request, the summary requests included, fit the window with room for max_tokens.
    for (const body of bodies(chat.server)) expect(countRequestTokens(body) + body.max_tokens).toBeLessThanOrEqual(window);

    const done = compactions(events);
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(done.every((c) => c.trigger === 'auto' && c.tokensAfter < c.tokensBefore && c.costUsd > 0)).toBe(true);
    // A later summary covers the earlier one's topics too (each summary request carries the one before).
    expect(topicsIn(done.at(-1)!.summary)).toEqual(expect.arrayContaining([1, 2, 3]));

    // After the first compaction, each chat request opens with the summary, ends with the plan's
    // state, and carries the latest user message verbatim.
    const firstSummaryAt = bodies(chat.server).findIndex(isSummaryRequest);
    const later = bodies(chat.server).slice(firstSummaryAt + 1).filter((b) => !isSummaryRequest(b));
    expect(later.length).toBeGreaterThan(5);
    for (const body of later) {
      const first = JSON.stringify(body.messages[0]);
      expect(first).toContain('<summary>');
      expect(first).toContain('Summary: the user asked about topics 1 to ');
      const last = JSON.stringify(body.messages.at(-1));
      for (const step of ['1. Collect the topics', '2. Explain each topic', '3. Sum up']) expect(last).toContain(`[pending] ${step}`);
      expect(lastUserText(body.messages)).toContain('Please explain topic');
    }
    // The request the summary was made for went out with the message that triggered it.
    const afterFirst = bodies(chat.server)[firstSummaryAt + 1]!;
    expect(isSummaryRequest(afterFirst)).toBe(false);

    // The plan is the one Claude made: compaction changed no step, status or version.
    const plan = chat.plans.getPlan(chat.session.id)!;
    expect(plan.version).toBe(1);
    expect(plan.steps.map((s) => [s.title, s.status])).toEqual([
      ['Collect the topics', 'pending'],
      ['Explain each topic', 'pending'],
      ['Sum up', 'pending'],
    ]);
    expect(events.filter((e) => e.type === 'plan_updated')).toHaveLength(1);

    // The chat keeps everything: the history, every message on screen, the markers.
    const state = chat.chats.getSession(chat.session.id);
    const transcript = chat.chats.wholeTranscript(chat.session.id);
    expect(transcript.filter((i) => i.kind === 'user')).toHaveLength(60);
    expect(transcript.filter((i) => i.kind === 'compaction')).toHaveLength(done.length);
    expect(state.session.context).toMatchObject({ window });
    expect(state.session.context!.tokens).toBeLessThanOrEqual(window);
    // Every request's usage, the summaries' too, is counted in the chat's cost.
    const usage = state.session.usage!;
    expect(usage.inputTokens).toBe(bodies(chat.server).reduce((n, b) => n + countRequestTokens(b), 0));
  });

  it('never cuts inside the current tool loop: its older tool results are shortened instead, and the pairs stay whole', { timeout: 60_000 }, async () => {
    const window = 6_000;
    let rounds = 0;
    const respond = (body: Record<string, unknown>): ScriptedTurn => {
      if (isSummaryRequest(body) || !lastUserText(body.messages as unknown[]).includes('Read every file')) return longChatResponder(body);
      return ++rounds <= 8 ? { kind: 'tool_use', calls: [{ name: 'read_part', input: { q: `part ${rounds}` } }], delayMs: 0 } : { kind: 'text', text: 'All parts read.', delayMs: 0 };
    };
    const part = 'data '.repeat(300);
    const chat = await startChat({ name: 'loop', turns: [] }, { server: { models: [smallWindowModel(window, 1_024)], respond }, tools: [testTool('read_part', async () => ok(part))] });
    await talk(chat, 1, 6);
    const mark = chat.recorder.events.length;
    chat.service.sendMessage(chat.session.id, 'Read every file, one part at a time.');
    await chat.recorder.idle(chat.session.id, mark, 20_000);

    expect(errors(chat.recorder.events)).toEqual([]);
    for (const body of bodies(chat.server)) expect(countRequestTokens(body) + body.max_tokens).toBeLessThanOrEqual(window);
    const loopStart = chat.chats.sessionState(chat.session.id)!.history.findIndex((m) => JSON.stringify(m).includes('Read every file'));
    // Compaction cut at the loop's user message at the latest, never inside the loop.
    for (const c of compactions(chat.recorder.events)) expect(c.upTo).toBeLessThanOrEqual(loopStart);
    const trimmed = (itemsOf(chat.recorder.events, 'notice') as NoticeItem[]).filter((n) => n.code === 'context_trimmed');
    expect(trimmed).toHaveLength(1);
    // The last request holds all eight tool calls of the loop, each with its result.
    const last = chatBodies(chat.server).at(-1)!;
    const json = JSON.stringify(last.messages);
    for (let i = 1; i <= 8; i++) expect(json).toContain(`part ${i}`);
    expect(json.match(/"type":"tool_use"/g)).toHaveLength(8);
    expect(json.match(/"type":"tool_result"/g)).toHaveLength(8);
    expect(json).toContain('Waypoint shortened this tool result');
    // The history itself keeps every result whole.
    expect(JSON.stringify(chat.chats.sessionState(chat.session.id)!.history)).not.toContain('Waypoint shortened');
  });

  it('a summary request that fails ends the run with a notice and changes nothing; nothing too long is sent', async () => {
    const respond = (body: Record<string, unknown>): ScriptedTurn => (isSummaryRequest(body) ? { kind: 'fault', fault: 'bad_request' } : longChatResponder(body));
    const chat = await startChat({ name: 'fail', turns: [] }, { server: { models: [smallWindowModel(5_000, 1_024)], respond } });
    await talk(chat, 1, 20);
    const failure = errors(chat.recorder.events)[0];
    expect(failure?.text).toContain('Waypoint had to compact this chat');
    expect(compactions(chat.recorder.events)).toEqual([]);
    // No chat request ever went past the window: the one that would have was not sent.
    for (const body of chatBodies(chat.server)) expect(countRequestTokens(body) + body.max_tokens).toBeLessThanOrEqual(5_000);
    const history = chat.chats.sessionState(chat.session.id)!.history;
    expect(history.at(-1)!.role).toBe('user'); // the unanswered message stays, for "Retry now"
  });
});

describe('a model with a smaller window, chosen mid-chat', () => {
  it('compacts the chat to fit it: the summary requests fit too, though no reply of that model has calibrated the measure yet', { timeout: 60_000 }, async () => {
    const models = [smallWindowModel(60_000, 1_024, 'claude-sonnet-4-6'), { ...smallWindowModel(9_000, 1_024, 'claude-haiku-4-5'), display_name: 'Claude Haiku 4.5' }];
    const chat = await startChat({ name: 'switch', turns: [] }, { server: { models, respond: longChatResponder }, settings: { maxTokens: 1_024 } });
    const pasted = (n: number) => `${userMessage(n)}\n\n${'Notes pasted along with the question, so the chat grows quickly. '.repeat(30)}`;
    for (let n = 1; n <= 24; n++) {
      const mark = chat.recorder.events.length;
      chat.service.sendMessage(chat.session.id, pasted(n));
      await chat.recorder.idle(chat.session.id, mark);
    }
    // Past the small window twice over, still inside the big one.
    expect(countRequestTokens(bodies(chat.server).at(-1))).toBeGreaterThan(18_000);
    expect(compactions(chat.recorder.events)).toEqual([]);

    chat.settings.set({ model: 'claude-haiku-4-5' });
    await talk(chat, 25, 26);
    // The new model's count came from count_tokens before anything was cut.
    expect(chat.server.countRequests.map((b) => (b as Body).model)).toContain('claude-haiku-4-5');
    expect(errors(chat.recorder.events)).toEqual([]);
    expect(chat.server.invalid).toEqual([]);
    expect(compactions(chat.recorder.events).length).toBeGreaterThanOrEqual(1);
    for (const body of bodies(chat.server).filter((b) => b.model === 'claude-haiku-4-5')) expect(countRequestTokens(body) + body.max_tokens).toBeLessThanOrEqual(9_000);
    expect(lastUserText(chatBodies(chat.server).at(-1)!.messages)).toContain(userMessage(26));
  });
});

describe('measuring requests', () => {
  it('asks count_tokens only when the estimate of what was added could decide whether the request fits', { timeout: 60_000 }, async () => {
    const chat = await startChat({ name: 'count', turns: [] }, { server: { models: [smallWindowModel(8_000, 1_024)], respond: longChatResponder } });
    // A first message big enough (no reply has calibrated the chat yet) that its estimate alone cannot tell; sized to
    // fit with the tools offered today (the ask_user tool made the fixed part bigger: at 380 repeats the turn no longer fit).
    const big = `Please read this and explain topic 1. ${'All the notes we took last week, in order. '.repeat(345)}`;
    chat.service.sendMessage(chat.session.id, big);
    await chat.recorder.idle(chat.session.id, 0);
    expect(chat.server.countRequests).toHaveLength(1);
    expect(countRequestTokens(chat.server.countRequests[0])).toBe(countRequestTokens(chat.server.requests[0]!.body));
    // The reply's usage calibrates the chat: a small next message is measured without a call.
    await talk(chat, 2, 2);
    expect(chat.server.countRequests).toHaveLength(1);
    // Near the limit again it may ask once more; either way every request fits and the chat goes on.
    await talk(chat, 3, 6);
    expect(errors(chat.recorder.events)).toEqual([]);
    for (const body of bodies(chat.server)) expect(countRequestTokens(body) + body.max_tokens).toBeLessThanOrEqual(8_000);
    expect(chat.server.countRequests.length).toBeLessThanOrEqual(2);
  });

  it('a small first message is measured by its estimate alone', async () => {
    const chat = await startChat({ name: 'small', turns: [] }, { server: { respond: longChatResponder } });
    await talk(chat, 1, 3);
    expect(chat.server.countRequests).toHaveLength(0);
    expect(chat.chats.getSession(chat.session.id).session.context).toMatchObject({ window: 200_000 });
  });
});

describe('"Compact now"', () => {
  it('summarises everything before the latest turn at the user\'s word; the next request carries the summary', async () => {
    const chat = await startChat({ name: 'manual', turns: [] }, { server: { respond: longChatResponder } });
    await talk(chat, 1, 3);
    const mark = chat.recorder.events.length;
    expect(chat.service.compactSession(chat.session.id)).toEqual({ started: true });
    await chat.recorder.idle(chat.session.id, mark);
    const states = chat.recorder.events.slice(mark).filter((e) => e.type === 'run_state').map((e) => (e.type === 'run_state' ? e.state : null));
    expect(states[0]).toEqual({ status: 'running', phase: 'compacting' });
    const [item] = compactions(chat.recorder.events);
    expect(item).toMatchObject({ trigger: 'manual', upTo: 4 });
    expect(topicsIn(item!.summary)).toEqual([1, 2]);
    const summaryRequest = bodies(chat.server).at(-1)!;
    expect(lastUserText(summaryRequest.messages)).toContain(SUMMARY_REQUEST_MARK);

    await talk(chat, 4, 4);
    const next = chatBodies(chat.server).at(-1)!;
    expect(JSON.stringify(next.messages[0])).toContain('Summary: the user asked about topics 1 to 2.');
    expect(JSON.stringify(next.messages)).not.toContain('Please explain topic 1 ');
    expect(JSON.stringify(next.messages)).not.toContain('Please explain topic 2 ');
    expect(JSON.stringify(next.messages)).toContain('Please explain topic 3 ');
    // The transcript still shows every message.
    expect(chat.chats.getSession(chat.session.id).transcript.filter((i) => i.kind === 'user')).toHaveLength(4);
  });

  it('is refused while Claude works and when there is nothing before the latest turn', async () => {
    const chat = await startChat({ name: 'refuse', turns: [{ kind: 'text', text: 'A slow answer that streams for a while.', delayMs: 30, chunkChars: 2 }] });
    expect(() => chat.service.compactSession(chat.session.id)).toThrow(/Nothing to compact yet/);
    chat.service.sendMessage(chat.session.id, 'Hello');
    expect(() => chat.service.compactSession(chat.session.id)).toThrow(/still working/);
    await chat.recorder.idle(chat.session.id, 0);
    expect(() => chat.service.compactSession(chat.session.id)).toThrow(/Nothing to compact yet/);
  });

  it('Stop during the summary request leaves the chat as it was', async () => {
    const chat = await startChat({ name: 'stop', turns: [] }, { server: { respond: (body) => (isSummaryRequest(body) ? { kind: 'text', text: 'Summary that takes long to write.', delayMs: 40, chunkChars: 1 } : longChatResponder(body)) } });
    await talk(chat, 1, 2);
    const mark = chat.recorder.events.length;
    chat.service.compactSession(chat.session.id);
    // Stopped while Claude writes the summary.
    await expect.poll(() => bodies(chat.server).some(isSummaryRequest)).toBe(true);
    chat.service.stop(chat.session.id);
    await chat.recorder.idle(chat.session.id, mark);
    expect(compactions(chat.recorder.events)).toEqual([]);
    expect(chat.chats.sessionState(chat.session.id)!.compaction).toBeNull();
  });
});
