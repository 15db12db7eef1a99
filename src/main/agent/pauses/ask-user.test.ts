import { afterEach, describe, expect, it } from 'vitest';
import { historyProblems } from '../../../../test-support/main/history-check';
import { closeAll, messagesOf, startChat } from '../../../../test-support/main/chat-test-setup';
import { askChoice, askFreeText, FREE_QUESTION, QUESTION, QUESTION_OPTIONS } from '../../../../test-support/scenarios/questions';
import type { EventOf } from '../../../shared/contract';
import type { ToolCallItem } from '../../../shared/transcript';
import { QUESTION_CANCELLED } from '../../tools/ask-user';

// Questions from Claude (ask_user) through the whole loop: real SDK, scripted server.

afterEach(closeAll);

async function start(scenario = askChoice) {
  const chat = await startChat(scenario);
  const asked = () => chat.recorder.waitFor((e) => e.type === 'question_requested') as Promise<EventOf<'question_requested'>>;
  const card = () => chat.chats.getSession(chat.session.id).transcript.find((i): i is ToolCallItem => i.kind === 'tool_call');
  return { ...chat, asked, card };
}

type Result = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean };
const resultOf = (content: unknown) => (content as Result[]).find((b) => b.type === 'tool_result')!;

describe('ask_user in the loop', () => {
  it('is offered in agentic mode only, with a schema that names its options', async () => {
    const { service, server, recorder, session, settings } = await startChat({ name: 'two', turns: [{ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' }] });
    service.sendMessage(session.id, 'hi');
    await recorder.idle(session.id);
    const tools = (server.requests[0]!.body as { tools: Array<{ name: string; input_schema: { properties: Record<string, unknown>; required: string[] } }> }).tools;
    const ask = tools.find((t) => t.name === 'ask_user')!;
    expect(Object.keys(ask.input_schema.properties)).toEqual(['question', 'options', 'allow_text']);
    expect(ask.input_schema.required).toEqual(['question']);
    settings.set({ agenticMode: false });
    const mark = recorder.events.length;
    service.sendMessage(session.id, 'again');
    await recorder.idle(session.id, mark);
    const later = (server.requests[1]!.body as { tools?: Array<{ name: string }> }).tools ?? [];
    expect(later.map((t) => t.name)).not.toContain('ask_user');
  });

  it('pauses on the question, and the chosen option goes back as the tool result verbatim (not an error)', async () => {
    const { service, chats, server, recorder, session, asked, card } = await start();
    service.sendMessage(session.id, 'Set up the app');
    const { request } = await asked();
    expect(request).toMatchObject({ sessionId: session.id, toolUseId: 'toolu_ask', question: QUESTION, options: QUESTION_OPTIONS, allowText: true });
    const waiting = chats.getSession(session.id);
    expect(waiting.pendingQuestion).toEqual(request);
    expect(waiting.runState).toEqual({ status: 'awaiting_question', requestId: request.id });
    expect(card()).toMatchObject({ name: 'ask_user', summary: `Ask: ${QUESTION}`, status: 'running' });

    expect(service.answerQuestion(session.id, request.id, 'SQLite')).toEqual({ accepted: true });
    await recorder.idle(session.id, recorder.events.length);
    const history = messagesOf(server, 1);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(resultOf(history[2]!.content)).toEqual({ type: 'tool_result', tool_use_id: 'toolu_ask', content: 'SQLite' });
    expect(card()).toMatchObject({ status: 'done', result: 'SQLite' });
    expect(chats.getSession(session.id).pendingQuestion).toBeNull();
    expect(chats.getSession(session.id).transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'Thanks, I will set it up that way.' });
    expect(recorder.ofType('question_resolved')).toEqual([{ type: 'question_resolved', sessionId: session.id, requestId: request.id, outcome: 'answered' }]);
  });

  it('typed text goes back exactly as typed (spaces, new lines and all)', async () => {
    const { service, server, recorder, session, asked } = await start(askFreeText);
    service.sendMessage(session.id, 'Add a module');
    const { request } = await asked();
    expect(request).toMatchObject({ question: FREE_QUESTION, options: [], allowText: true });
    const typed = '  report_builder\n(with the old "exports" kept)  ';
    service.answerQuestion(session.id, request.id, typed);
    await recorder.idle(session.id, recorder.events.length);
    expect(resultOf(messagesOf(server, 1)[2]!.content)).toEqual({ type: 'tool_result', tool_use_id: 'toolu_name', content: typed });
  });

  it('a second answer (another tab) is refused and changes nothing; an answer not among the options is refused with a reason', async () => {
    const { service, chats, server, recorder, session, asked } = await start({
      ...askChoice,
      turns: [{ kind: 'tool_use', calls: [{ name: 'ask_user', id: 'toolu_only', input: { question: QUESTION, options: QUESTION_OPTIONS } }] }, { kind: 'text', text: 'OK.' }],
    });
    service.sendMessage(session.id, 'Set up the app');
    const { request } = await asked();
    expect(request.allowText).toBe(false);
    expect(() => service.answerQuestion(session.id, request.id, 'MySQL')).toThrow('Claude asked for one of: "PostgreSQL", "SQLite". Pick one of those.');
    expect(chats.getSession(session.id).pendingQuestion).toEqual(request);
    // Worded by the one zod formatter (shared/zod-error.ts), without zod's "Invalid input:" lead-in.
    expect(() => service.answerQuestion(session.id, request.id, 42 as unknown as string)).toThrow(/^expected string, received number$/);
    expect(chats.getSession(session.id).pendingQuestion).toEqual(request);
    expect(service.answerQuestion(session.id, 'not-the-request', 'SQLite')).toEqual({ accepted: false });
    expect(service.answerQuestion(session.id, request.id, 'PostgreSQL')).toEqual({ accepted: true });
    expect(service.answerQuestion(session.id, request.id, 'SQLite')).toEqual({ accepted: false });
    await recorder.idle(session.id, recorder.events.length);
    expect(resultOf(messagesOf(server, 1)[2]!.content).content).toBe('PostgreSQL');
    expect(server.requests).toHaveLength(2);
  });

  it('Stop closes it: the call goes back as a cancelled is_error result, and nothing is sent until the user writes again', async () => {
    const { service, chats, server, recorder, session, asked, card } = await start();
    service.sendMessage(session.id, 'Set up the app');
    const { request } = await asked();
    expect(service.stop(session.id)).toEqual({ stopped: true });
    await recorder.idle(session.id);
    expect(recorder.ofType('question_resolved').map((e) => e.outcome)).toEqual(['cancelled']);
    expect(chats.getSession(session.id).pendingQuestion).toBeNull();
    expect(service.answerQuestion(session.id, request.id, 'SQLite')).toEqual({ accepted: false });
    expect(card()).toMatchObject({ status: 'error', result: QUESTION_CANCELLED });
    expect(server.requests).toHaveLength(1);

    const mark = recorder.events.length;
    service.sendMessage(session.id, 'Use whatever you think is best');
    await recorder.idle(session.id, mark);
    expect(server.requests).toHaveLength(2);
    const history = messagesOf(server, 1);
    expect(historyProblems(history as never)).toEqual([]);
    expect(history[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_ask', content: QUESTION_CANCELLED, is_error: true },
      { type: 'text', text: 'Use whatever you think is best' },
    ]);
    expect(server.invalid).toEqual([]);
  });

  it('a new message while the question waits is refused with what to do', async () => {
    const { service, session, asked } = await start();
    service.sendMessage(session.id, 'Set up the app');
    await asked();
    // No run waits on it (the one that asked ended): the chat's awaiting state says what to do, as after a restart.
    expect(() => service.sendMessage(session.id, 'hello?')).toThrow(`Claude asked you: "${QUESTION}". Answer it first, or press Stop to cancel the question.`);
  });
});
