/**
 * Test support for the API-fault suites: a ChatService on the real SDK against the scripted
 * server, with tiny backoff delays, console capture, and an afterEach check that the API key
 * never leaves main (no event, notice or log line carries it).
 */
import { expect } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../scripted-api/server';
import type { ScriptedTurn } from '../scripted-api/scenario';
import type { RunState } from '../../src/shared/transcript';
import type { ApiRetryPolicy } from '../../src/main/agent/model/api-retry-policy';
import { chatsAndRuns, type ChatsAndRuns } from './chats-and-runs';
import { EventRecorder, TinyPlanService, keySource, settingsSource } from './chat-test-harness';
import { ToolRegistry } from '../../src/main/tools/tool-registry';
import { stripCacheControl } from '../../src/main/agent/model/cache-control';

export const FAULT_KEY = 'waypoint-test-TOPSECRET-fault-key-987654321';

/** Backoff in milliseconds, not seconds, so a storm of faults costs the suite little time. */
export const FAST_RETRY: Partial<ApiRetryPolicy> = { baseDelayMs: 5, maxDelayMs: 40, random: () => 0 };

export interface FaultSetupOptions {
  stallTimeoutMs?: number;
  serverKey?: string;
  apiRetry?: Partial<ApiRetryPolicy>;
}

const open: { service: ChatsAndRuns; server: ScriptedServer; recorder: EventRecorder }[] = [];
const logged: string[] = [];
const originalError = console.error;
const originalWarn = console.warn;

export async function setupFaults(turns: ScriptedTurn[], opts: FaultSetupOptions = {}) {
  console.error = (...args: unknown[]) => logged.push(args.map(String).join(' '));
  console.warn = (...args: unknown[]) => logged.push(args.map(String).join(' '));
  const server = await startScriptedServer({ scenario: { name: 'faults', turns }, requireApiKey: opts.serverKey ?? FAULT_KEY });
  const loop = chatsAndRuns({
    settings: settingsSource(),
    apiKey: keySource(FAULT_KEY),
    plans: new TinyPlanService(),
    tools: new ToolRegistry(),
    baseURL: server.url,
    workspace: null,
    stallTimeoutMs: opts.stallTimeoutMs ?? 2_000,
    sdkMaxRetries: 2, // must not matter: the streaming request runs with the SDK's retries off
    apiRetry: { ...FAST_RETRY, ...opts.apiRetry },
  });
  const recorder = new EventRecorder();
  loop.chats.onEvent(recorder.listener);
  open.push({ service: loop, server, recorder });
  const session = loop.chats.newSession();
  const { chats, chat: service } = loop;
  return { service, chats, recorder, session, server };
}

export type FaultCtx = Awaited<ReturnType<typeof setupFaults>>;

/** For afterEach: checks the key stayed in main, then closes everything. */
export async function teardownFaults(): Promise<void> {
  const runs = open.splice(0);
  const lines = logged.splice(0);
  console.error = originalError;
  console.warn = originalWarn;
  for (const { service, server } of runs) {
    service.dispose();
    await server.close();
  }
  for (const { recorder } of runs) for (const event of recorder.events) expect(JSON.stringify(event)).not.toContain(FAULT_KEY);
  for (const line of lines) expect(line).not.toContain(FAULT_KEY);
}

/** Sends, waits for idle, and returns the transcript after the user item. */
export async function sendAndSettle(ctx: FaultCtx, text: string, timeoutMs = 5_000) {
  const mark = ctx.recorder.events.length;
  const { itemId } = ctx.service.sendMessage(ctx.session.id, text);
  await ctx.recorder.idle(ctx.session.id, mark, timeoutMs);
  const transcript = ctx.chats.getSession(ctx.session.id).transcript;
  return transcript.slice(transcript.findIndex((i) => i.id === itemId) + 1);
}

/** The run states recorded from event index `from` on. */
export function runStates(ctx: FaultCtx, from = 0): RunState[] {
  return ctx.recorder.events.slice(from).flatMap((e) => (e.type === 'run_state' && e.sessionId === ctx.session.id ? [e.state] : []));
}

export function retryingStates(ctx: FaultCtx, from = 0): Extract<RunState, { status: 'retrying' }>[] {
  return runStates(ctx, from).filter((s): s is Extract<RunState, { status: 'retrying' }> => s.status === 'retrying');
}

export type SentMessage = { role: string; content: string | { type: string; text?: string }[] };
export const sentMessages = (ctx: FaultCtx, i: number): SentMessage[] =>
  stripCacheControl((ctx.server.requests.at(i)!.body as { messages: SentMessage[] }).messages);
