/** Starts a ChatService against a scripted server for one test; closeAll() in afterEach. */
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../scripted-api/server';
import type { Scenario } from '../scripted-api/scenario';
import type { Settings } from '../../src/shared/settings';
import { chatsAndRuns, type ChatsAndRuns } from './chats-and-runs';
import { EventRecorder, TinyPlanService, keySource, settingsSource } from './chat-test-harness';
import { z } from 'zod';
import { defineTool } from '../../src/main/tools/define-tool';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../../src/main/tools/tool';
import { ToolRegistry } from '../../src/main/tools/tool-registry';
import { stripCacheControl } from '../../src/main/agent/model/cache-control';
import type { RequestAttachments } from '../../src/main/agent/ports';

export const TEST_KEY = 'waypoint-test-SECRET-key-0123456789';
const open: { service: ChatsAndRuns; server: ScriptedServer }[] = [];

export async function closeAll(): Promise<void> {
  for (const { service, server } of open.splice(0)) {
    service.dispose();
    await server.close();
  }
}

export async function startChat(
  scenario: Scenario,
  opts: {
    settings?: Partial<Settings>;
    tools?: ToolDefinition[];
    key?: string | null;
    attachments?: RequestAttachments;
    server?: Pick<ScriptedServerOptions, 'models' | 'respond'>;
  } = {},
) {
  const server = await startScriptedServer({ scenario, requireApiKey: TEST_KEY, ...opts.server });
  const registry = new ToolRegistry();
  for (const tool of opts.tools ?? []) registry.register(tool);
  const plans = new TinyPlanService();
  const settings = settingsSource(opts.settings);
  const loop = chatsAndRuns({
    settings,
    apiKey: keySource(opts.key === undefined ? TEST_KEY : opts.key),
    plans,
    tools: registry,
    baseURL: server.url,
    workspace: '/tmp/ws',
    stallTimeoutMs: 2_000,
    sdkMaxRetries: 0,
    ...(opts.attachments ? { attachments: opts.attachments } : {}),
  });
  open.push({ service: loop, server });
  const recorder = new EventRecorder();
  loop.chats.onEvent(recorder.listener);
  const session = loop.chats.newSession();
  const { chats, chat: service, models } = loop;
  return { server, service, chats, models, recorder, session, plans, settings };
}

/** A workspace tool that takes any JSON object of arguments and runs `run`. */
export function testTool(name: string, run: (input: Record<string, unknown>, ctx: ToolContext) => Promise<ToolOutcome>): ToolDefinition {
  return defineTool({
    name,
    description: `Test tool ${name}.`,
    input: z.record(z.string(), z.unknown()),
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    group: 'workspace',
    summarize: (input) => `${name} ${JSON.stringify(input)}`,
    describeDryRun: () => name,
    needsApproval: () => false,
    execute: run,
  });
}

export type RecordedMessage = {
  role: string;
  content: string | { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean }[];
};

export const messagesOf = (server: ScriptedServer, i: number): RecordedMessage[] =>
  stripCacheControl((server.requests[i]!.body as { messages: RecordedMessage[] }).messages);
