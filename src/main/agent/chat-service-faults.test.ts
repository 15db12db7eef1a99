import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { ScriptedTurn } from '../../../test-support/scripted-api/scenario';
import { ChatService } from './chat-service';
import { EventRecorder, TinyPlanService, keySource, settingsSource } from './chat-test-harness';
import { ToolRegistry } from './tool-registry';

const KEY = 'sk-ant-api03-TOPSECRET-fault-key-987654321';
let server: ScriptedServer | undefined;
let service: ChatService | undefined;
let recorder: EventRecorder | undefined;
let logged: string[] = [];
const originalError = console.error;
const originalWarn = console.warn;

afterEach(async () => {
  // The key must never leave main: not in any event, notice or log line.
  for (const event of recorder?.events ?? []) expect(JSON.stringify(event)).not.toContain(KEY);
  for (const line of logged) expect(line).not.toContain(KEY);
  console.error = originalError;
  console.warn = originalWarn;
  service?.dispose();
  await server?.close();
  server = service = recorder = undefined;
  logged = [];
});

async function setup(turns: ScriptedTurn[], opts: { sdkMaxRetries?: number; stallTimeoutMs?: number; serverKey?: string } = {}) {
  console.error = (...args: unknown[]) => logged.push(args.map(String).join(' '));
  console.warn = (...args: unknown[]) => logged.push(args.map(String).join(' '));
  server = await startScriptedServer({ scenario: { name: 'faults', turns }, requireApiKey: opts.serverKey ?? KEY });
  service = new ChatService({
    settings: settingsSource(),
    apiKey: keySource(KEY),
    plans: new TinyPlanService(),
    tools: new ToolRegistry(),
    baseURL: server.url,
    workspace: null,
    deltaFlushMs: 10,
    stallTimeoutMs: opts.stallTimeoutMs ?? 2_000,
    sdkMaxRetries: opts.sdkMaxRetries ?? 0,
  });
  recorder = new EventRecorder();
  service.onEvent(recorder.listener);
  const session = service.newSession();
  return { service, recorder, session, server };
}

/** Sends, waits for idle, and returns the transcript after the user item. */
async function sendAndSettle(ctx: Awaited<ReturnType<typeof setup>>, text: string) {
  const mark = ctx.recorder.events.length;
  const { itemId } = ctx.service.sendMessage(ctx.session.id, text);
  await ctx.recorder.idle(ctx.session.id, mark);
  const transcript = ctx.service.getSession(ctx.session.id).transcript;
  return transcript.slice(transcript.findIndex((i) => i.id === itemId) + 1);
}

/**
 * After a failure, the conversation continues: the next request's history is valid. When the
 * failed turn produced no reply, the unanswered message is merged with the new one (no two user
 * messages in a row), so Claude sees both.
 */
async function expectRecovers(ctx: Awaited<ReturnType<typeof setup>>, partialKept = false) {
  const after = await sendAndSettle(ctx, 'try again');
  const text = partialKept ? 'You said: try again' : 'You said: hi\ntry again';
  expect(after).toEqual([expect.objectContaining({ kind: 'assistant', status: 'done', text })]);
  expect(ctx.service.getSession(ctx.session.id).runState).toEqual({ status: 'idle' });
}

describe('ChatService API faults', () => {
  it('401 ends the run with an auth notice that says what to do', async () => {
    const ctx = await setup([], { serverKey: 'a-different-key' });
    const after = await sendAndSettle(ctx, 'hi');
    expect(after).toEqual([
      expect.objectContaining({ kind: 'notice', level: 'error', code: 'auth', text: 'Claude rejected the API key (401). Open Settings and paste a valid key.' }),
    ]);
    expect(ctx.service.getSession(ctx.session.id).runState).toEqual({ status: 'idle' });
  });

  it('a scripted 401 fault, then recovery', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'unauthorized' }]);
    expect(await sendAndSettle(ctx, 'hi')).toEqual([expect.objectContaining({ kind: 'notice', code: 'auth' })]);
    await expectRecovers(ctx);
  });

  it('400 gives a bad_request notice carrying the API message', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'bad_request' }]);
    const [notice] = await sendAndSettle(ctx, 'hi');
    expect(notice).toMatchObject({ kind: 'notice', level: 'error', code: 'bad_request' });
    expect((notice as { text: string }).text).toContain('text content blocks must be non-empty');
    await expectRecovers(ctx);
  });

  it('429 with retry-after is retried by the SDK and then succeeds', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'rate_limit', retryAfterSeconds: 0.2 }, { kind: 'text', text: 'Made it.' }], { sdkMaxRetries: 1 });
    const started = Date.now();
    const after = await sendAndSettle(ctx, 'hi');
    expect(Date.now() - started).toBeGreaterThanOrEqual(180); // honoured retry-after
    expect(after).toEqual([expect.objectContaining({ kind: 'assistant', text: 'Made it.', status: 'done' })]);
    expect(ctx.server.requests).toHaveLength(2);
  });

  it('persistent 429 ends with a clear rate_limit notice', async () => {
    const ctx = await setup(
      [
        { kind: 'fault', fault: 'rate_limit', retryAfterSeconds: 0.01 },
        { kind: 'fault', fault: 'rate_limit', retryAfterSeconds: 0.01 },
      ],
      { sdkMaxRetries: 1 },
    );
    const [notice] = await sendAndSettle(ctx, 'hi');
    expect(notice).toMatchObject({ kind: 'notice', code: 'rate_limit' });
    expect((notice as { text: string }).text).toMatch(/429\) after 1 automatic retry\. Wait a minute/);
    await expectRecovers(ctx);
  });

  it('529 gives an overloaded notice', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'overloaded' }]);
    const [notice] = await sendAndSettle(ctx, 'hi');
    expect(notice).toMatchObject({ kind: 'notice', code: 'overloaded' });
    expect((notice as { text: string }).text).toContain('overloaded');
    await expectRecovers(ctx);
  });

  it('500 gives a server notice', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'server_error' }]);
    const [notice] = await sendAndSettle(ctx, 'hi');
    expect(notice).toMatchObject({ kind: 'notice', code: 'server' });
    expect((notice as { text: string }).text).toContain('(500)');
    await expectRecovers(ctx);
  });

  it('a mid-stream error event keeps the partial text and gives an overloaded notice', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'midstream_error', partialText: 'The answer starts with' }]);
    const after = await sendAndSettle(ctx, 'hi');
    expect(after).toEqual([
      expect.objectContaining({ kind: 'assistant', text: 'The answer starts with', status: 'error' }),
      expect.objectContaining({ kind: 'notice', code: 'overloaded' }),
    ]);
    expect((after[1] as { text: string }).text).toContain('in the middle of its reply');
    await expectRecovers(ctx, true);
    const history = (ctx.server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(history[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'The answer starts with' }] });
  });

  it('a dropped connection keeps the partial text and gives a network notice', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'drop', partialText: 'Half an answer' }]);
    const after = await sendAndSettle(ctx, 'hi');
    expect(after).toEqual([
      expect.objectContaining({ kind: 'assistant', text: 'Half an answer', status: 'error' }),
      expect.objectContaining({ kind: 'notice', level: 'error', code: 'network' }),
    ]);
    await expectRecovers(ctx, true);
  });

  it('a stalled stream is abandoned after stallTimeoutMs with a stalled notice', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'stall', partialText: 'Thinking' }], { stallTimeoutMs: 300 });
    const started = Date.now();
    const after = await sendAndSettle(ctx, 'hi');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(after).toEqual([
      expect.objectContaining({ kind: 'assistant', text: 'Thinking', status: 'error' }),
      expect.objectContaining({ kind: 'notice', code: 'stalled' }),
    ]);
    await expectRecovers(ctx, true);
  });

  it('an unreachable API gives a network notice', async () => {
    const ctx = await setup([]);
    await ctx.server.close();
    const [notice] = await sendAndSettle(ctx, 'hi');
    expect(notice).toMatchObject({ kind: 'notice', code: 'network' });
    expect((notice as { text: string }).text).toContain('could not reach the Anthropic API');
  });
});
