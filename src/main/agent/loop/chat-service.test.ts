import { afterEach, describe, expect, it } from 'vitest';
import { WaypointEvent } from '../../../shared/contract';
import { DEFAULT_MODEL } from '../../../shared/settings';
import { UserFacingError } from '../../common/errors';
import { ModelFacts } from '../model/model-facts';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';
import { TEST_KEY, closeAll, messagesOf, startChat as setup } from '../../../../test-support/main/chat-test-setup';

afterEach(closeAll);

describe('ChatService streaming', () => {
  it('streams text as deltas (the event pump batches them for the shells) and ends with the exact text, a title and idle', async () => {
    const text = 'Streaming arrives in small pieces, batched into fewer events for a smooth UI. '.repeat(3);
    const { service, chats, recorder, session } = await setup({ name: 's', turns: [{ kind: 'text', text, chunkChars: 3, delayMs: 1 }] });
    const { itemId } = service.sendMessage(session.id, '  Explain streaming please  ');
    await recorder.idle(session.id);

    const deltas = recorder.ofType('message_delta');
    const assistantId = deltas[0]!.itemId;
    expect(deltas.map((d) => d.text).join('')).toBe(text);
    expect(deltas.length).toBeGreaterThan(1);
    const snapshot = chats.getSession(session.id);
    expect(snapshot.transcript.map((i) => i.kind)).toEqual(['user', 'assistant']);
    expect(snapshot.transcript[0]).toMatchObject({ id: itemId, text: '  Explain streaming please  ' });
    expect(snapshot.transcript[1]).toMatchObject({ id: assistantId, text, status: 'done' });
    expect(snapshot.runState).toEqual({ status: 'idle' });
    expect(snapshot.session.title).toBe('Explain streaming please');
    expect(recorder.ofType('message_done')).toEqual([{ type: 'message_done', sessionId: session.id, itemId: assistantId, stopReason: 'end_turn' }]);
    expect(recorder.ofType('run_state').map((e) => e.state)).toContainEqual({ status: 'running', phase: 'streaming' });
    for (const event of recorder.events) expect(() => WaypointEvent.parse(event)).not.toThrow();
  });

  it('sends model, max_tokens, the system prompt with planning guidance and the planning tools', async () => {
    const { service, chats, recorder, session, server } = await setup({ name: 's', turns: [] }, { settings: { maxTokens: 1234 } });
    service.sendMessage(session.id, 'hello');
    await recorder.idle(session.id);
    const body = server.requests[0]!.body as { model: string; max_tokens: number; system: unknown; stream: boolean; tools: { name: string }[] };
    expect(body).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 1234, stream: true });
    // The system prompt goes as one cached text block (cache-control.ts).
    expect(body.system).toEqual([{ type: 'text', text: expect.stringContaining('/tmp/ws'), cache_control: { type: 'ephemeral' } }]);
    expect(JSON.stringify(body.system)).toContain('PLANNING GUIDANCE (structured)');
    expect(body.tools.map((t) => t.name)).toEqual(['make_plan', 'finish_step', 'ask_user', 'delegate']);
    expect(chats.getSession(session.id).transcript[1]).toMatchObject({ text: 'You said: hello', status: 'done' });
  });

  it('leaves planning out when agentic mode is off', async () => {
    const { service, recorder, session, server } = await setup({ name: 's', turns: [] }, { settings: { agenticMode: false } });
    service.sendMessage(session.id, 'hello');
    await recorder.idle(session.id);
    const body = server.requests[0]!.body as { system: unknown; tools?: unknown };
    expect(JSON.stringify(body.system)).toContain('You are Claude');
    expect(JSON.stringify(body.system)).not.toContain('PLANNING GUIDANCE');
    expect(body.tools).toBeUndefined();
  });

  it('stops mid-stream at once, keeps the partial text, and the next message sends a valid history', async () => {
    const long = 'word '.repeat(400);
    const { service, chats, recorder, session, server } = await setup({ name: 's', turns: [{ kind: 'text', text: long, chunkChars: 5, delayMs: 10 }] });
    service.sendMessage(session.id, 'write a lot');
    await recorder.waitFor((e) => e.type === 'message_delta');
    const stoppedAt = Date.now();
    expect(service.stop(session.id)).toEqual({ stopped: true });
    await recorder.idle(session.id);
    // The rest of the stream would take ~4 s: ending well before that means Stop cut it off.
    expect(Date.now() - stoppedAt).toBeLessThan(1_500);

    const assistant = chats.getSession(session.id).transcript[1]!;
    expect(assistant).toMatchObject({ kind: 'assistant', status: 'stopped' });
    const partial = assistant.kind === 'assistant' ? assistant.text : '';
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(long.length);
    expect(long.startsWith(partial)).toBe(true);
    expect(service.stop(session.id)).toEqual({ stopped: false });

    const mark = recorder.events.length;
    service.sendMessage(session.id, 'and now?');
    await recorder.idle(session.id, mark);
    expect(chats.getSession(session.id).transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'You said: and now?', status: 'done' });
    const history = messagesOf(server, 1);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(history[1]!.content).toEqual([{ type: 'text', text: partial }]);
  });
});

describe('ChatService refusals and sessions', () => {
  it('refuses a second message while a run is active (busy), changing nothing', async () => {
    const { service, chats, recorder, session } = await setup({ name: 's', turns: [{ kind: 'text', text: 'slow '.repeat(50), delayMs: 5 }] });
    service.sendMessage(session.id, 'first');
    const before = chats.getSession(session.id).transcript.length;
    expect(() => service.sendMessage(session.id, 'second')).toThrow(expect.objectContaining({ code: 'busy' }));
    expect(chats.getSession(session.id).transcript.length).toBe(before);
    await recorder.idle(session.id);
  });

  it('refuses without an API key with a clear message, sending nothing', async () => {
    const { service, chats, session, server } = await setup({ name: 's', turns: [] }, { key: null });
    const error = (() => {
      try {
        service.sendMessage(session.id, 'hi');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UserFacingError);
    expect((error as Error).message).toMatch(/API key.*Settings/);
    expect(chats.getSession(session.id).transcript).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses unknown sessions and empty text', async () => {
    const { service, chats, session } = await setup({ name: 's', turns: [] });
    expect(() => chats.getSession('missing')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => service.sendMessage('missing', 'hi')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => service.sendMessage(session.id, '   ')).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });

  it('lists sessions newest first', async () => {
    const { service, chats, recorder, session } = await setup({ name: 's', turns: [] });
    const second = chats.newSession();
    expect(chats.listSessions().map((s) => s.id)).toEqual([second.id, session.id]);
    await new Promise((r) => setTimeout(r, 5));
    service.sendMessage(session.id, 'bump');
    await recorder.idle(session.id);
    expect(chats.listSessions().map((s) => s.id)).toEqual([session.id, second.id]);
  });

  it('lists models from the Models API, or the fallback without a key', async () => {
    const { models, settings } = await setup({ name: 's', turns: [] });
    const listed = await models.choices(TEST_KEY, settings.get().model);
    expect(listed.source).toBe('api');
    expect(listed.models).toContainEqual({
      id: 'claude-sonnet-4-5-20250929',
      displayName: 'Claude Sonnet 4.5',
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      thinking: { adaptive: false, enabled: true, efforts: [] },
    });
    // Without a key the Models API cannot be asked.
    const fallback = await new ModelFacts().choices(null, settingsSource().get().model);
    expect(fallback.source).toBe('fallback');
    expect(fallback.models[0]!.id).toBe(DEFAULT_MODEL);
    // The built-in table describes the fallback list: limits and thinking.
    expect(fallback.models).toContainEqual({
      id: 'claude-opus-4-6',
      displayName: 'Claude Opus 4.6',
      contextWindow: 200_000,
      maxOutputTokens: 128_000,
      thinking: { adaptive: true, enabled: true, efforts: ['low', 'medium', 'high', 'max'] },
    });
  });
});
